/** The standalone service's own settings (the receiver's are in ../core/config.ts). */
import { ConfigError, type Env } from "../core/config";

export interface ServiceSettings {
  host: string;
  port: number;
  /** How long a shutdown waits for requests in flight, then for e-mails under way. */
  shutdownTimeoutMs: number;
}

/** ENQUIRY_HOST (127.0.0.1), ENQUIRY_PORT (9100), ENQUIRY_SHUTDOWN_TIMEOUT_SECONDS (10). */
export function loadServiceSettings(env: Env): ServiceSettings {
  const value = (name: string) => env[name]?.trim() || undefined;
  const port = value("ENQUIRY_PORT") ?? "9100";
  if (!/^\d+$/.test(port) || Number(port) > 65535)
    throw new ConfigError(`ENQUIRY_PORT must be a port number from 0 to 65535 (got "${port}")`);
  const timeout = value("ENQUIRY_SHUTDOWN_TIMEOUT_SECONDS") ?? "10";
  if (!/^\d+$/.test(timeout) || Number(timeout) < 1) {
    throw new ConfigError(`ENQUIRY_SHUTDOWN_TIMEOUT_SECONDS must be a whole number above 0 (got "${timeout}")`);
  }
  return { host: value("ENQUIRY_HOST") ?? "127.0.0.1", port: Number(port), shutdownTimeoutMs: Number(timeout) * 1000 };
}
