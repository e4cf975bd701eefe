/**
 * autocannon (no type declarations of its own), typed for what these tests use, and stopped after a
 * hard time limit whatever its options say.
 */
import autocannonModule from "autocannon";

export interface CannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  onResponse?: (
    status: number,
    body: string,
    context: Record<string, unknown>,
    headers: Record<string, string>,
  ) => void;
}

export interface CannonOptions {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  /** Seconds per request. */
  timeout?: number;
  headers?: Record<string, string>;
  idReplacement?: boolean;
  /** Each connection closes and opens a new one after this many requests. */
  reconnectRate?: number;
  requests?: CannonRequest[];
}

interface Histogram {
  average: number;
  p50: number;
  p99: number;
  max: number;
  total: number;
}

export interface CannonResult {
  requests: Histogram;
  latency: Histogram;
  throughput: Histogram;
  errors: number;
  /** What each error was (autocannon counts them; the tests name them). */
  errorMessages?: string[];
  timeouts: number;
  non2xx: number;
  "2xx": number;
  duration: number;
}

type Autocannon = (
  options: CannonOptions,
  done: (error: Error | null, result: CannonResult) => void,
) => { stop(): void; on(event: "reqError", listener: (error: Error & { code?: string }) => void): void };
// autocannon ships no types (declared in autocannon.d.ts); these are the parts of its API used here.
const autocannon = autocannonModule as Autocannon;

export function cannon(options: CannonOptions, hardLimitMs: number): Promise<CannonResult> {
  return new Promise((resolve, reject) => {
    // eslint-disable-next-line prefer-const -- assigned after the callback that clears it is created
    let timer: NodeJS.Timeout | undefined;
    const errorMessages: string[] = [];
    const instance = autocannon(options, (error, result) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve({ ...result, errorMessages });
    });
    instance.on("reqError", (error) => errorMessages.push(error.code ?? error.message));
    timer = setTimeout(() => instance.stop(), hardLimitMs);
  });
}

/** The figures the report gives. */
export function summary(result: CannonResult) {
  return {
    requests: result.requests.total,
    // Completed requests over the run's length (autocannon's own average is per whole second).
    requestsPerSecond: Math.round(result.requests.total / result.duration),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    "2xx": result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    errorMessages: result.errorMessages ?? [],
    timeouts: result.timeouts,
    durationSeconds: result.duration,
    throughputMBps: Math.round((result.throughput.average / 1e6) * 10) / 10,
  };
}
