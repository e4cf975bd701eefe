/**
 * A webhook endpoint on 127.0.0.1 that checks every request with the Standard Webhooks
 * specification's own package (standardwebhooks), and answers as the test's script says: a status
 * (with headers), or no answer at all (a hung endpoint, for the sender's timeout).
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Received {
  id: string;
  timestamp: string;
  /** Whether standardwebhooks accepted its signature and timestamp. */
  valid: boolean;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
  /** As received, for a test that verifies with another secret too. */
  body: string;
  headers: Record<string, string>;
}

export type Reply = { status: number; headers?: Record<string, string> } | "hang";

export interface WebhookSink {
  url: string;
  received: Received[];
  stop(): Promise<void>;
}

export const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

/** reply: the answer to the n-th request (0-based). */
export async function startWebhookSink(secret: string, reply: (n: number) => Reply): Promise<WebhookSink> {
  const verifier = new Webhook(secret);
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = req.headers as Record<string, string>;
      let valid = true;
      try {
        verifier.verify(body, headers);
      } catch {
        valid = false;
      }
      const n = received.push({
        id: headers["webhook-id"] ?? "",
        timestamp: headers["webhook-timestamp"] ?? "",
        valid,
        payload: JSON.parse(body) as Received["payload"],
        body,
        headers,
      });
      const answer = reply(n - 1);
      if (answer === "hang") return;
      res.writeHead(answer.status, answer.headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/enquiries`,
    received,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
