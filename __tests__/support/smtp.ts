/** A real SMTP server (the smtp-server package) on 127.0.0.1 that keeps what it receives. */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface Received {
  raw: string;
  mailFrom: string;
  rcptTo: string[];
}

export interface SmtpSink {
  port: number;
  messages: Received[];
  stop(): Promise<void>;
}

/** port 0 picks a free one; a given port lets a test bring "the same" server back. */
export async function startSmtp(port = 0): Promise<SmtpSink> {
  const messages: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"], // plain SMTP on loopback; nodemailer then does not try TLS
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const { mailFrom, rcptTo } = session.envelope;
        messages.push({
          raw: Buffer.concat(chunks).toString("utf8"),
          mailFrom: mailFrom ? mailFrom.address : "",
          rcptTo: rcptTo.map((r) => r.address),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    messages,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
