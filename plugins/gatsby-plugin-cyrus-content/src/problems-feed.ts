import type { IncomingMessage, ServerResponse } from "node:http";
import type { ContentProblem } from "../../../src/node/content/problems";
import type { FeedBody, HeldFile } from "./endpoints";

/** A comment line every so often keeps an idle stream open through proxies, and finds closed ones. */
const HEARTBEAT_MS = 25_000;

/**
 * The content check for the browser during `gatsby develop`: GET /__content-check answers the
 * problems (the files held back because of them, and the warnings) as JSON; GET /__content-check/events is a
 * server-sent event stream that sends them when a
 * browser connects and again whenever they change (the overlay client listens to it).
 */
export class ProblemsFeed {
  private body: string;
  private readonly clients = new Set<ServerResponse>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(problems: readonly ContentProblem[] = []) {
    this.body = serialise(problems, [], []);
  }

  /**
   * New problems (and files held back, and the warnings); sent to every browser when they differ from
   * the last. Answers whether they did.
   */
  update(
    problems: readonly ContentProblem[],
    heldBack: readonly HeldFile[] = [],
    warnings: readonly ContentProblem[] = [],
  ): boolean {
    const body = serialise(problems, heldBack, warnings);
    if (body === this.body) return false;
    this.body = body;
    for (const client of this.clients) client.write(event(body));
    return true;
  }

  /** GET /__content-check */
  json = (_req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
    res.end(this.body);
  };

  /** GET /__content-check/events */
  events = (req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      // Gatsby's develop server compresses what it can (the compression middleware), which holds an
      // event back until enough bytes come; no-transform is how a response declines that.
      "Cache-Control": "no-store, no-transform",
      Connection: "keep-alive",
      // Proxies that buffer (nginx) would hold the events back.
      "X-Accel-Buffering": "no",
    });
    res.write(event(this.body));
    this.clients.add(res);
    this.startHeartbeat();
    req.on("close", () => {
      this.clients.delete(res);
      if (this.clients.size === 0) this.stopHeartbeat();
    });
  };

  get connections(): number {
    return this.clients.size;
  }

  /** Ends every stream (the server stops). */
  close(): void {
    this.stopHeartbeat();
    for (const client of this.clients) client.end();
    this.clients.clear();
  }

  private startHeartbeat(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      for (const client of this.clients) client.write(":\n\n");
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}

const serialise = (
  problems: readonly ContentProblem[],
  heldBack: readonly HeldFile[],
  warnings: readonly ContentProblem[],
): string =>
  JSON.stringify({ problems: [...problems], heldBack: [...heldBack], warnings: [...warnings] } satisfies FeedBody);

/** One server-sent event; JSON has no raw line breaks, so it is one data line. */
const event = (body: string): string => `data: ${body}\n\n`;
