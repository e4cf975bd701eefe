/**
 * A small, independent DKIM check (RFC 6376, rsa-sha256, relaxed/relaxed) of a message as an SMTP
 * server received it, against the public key itself (no DNS): the body hash, then the signature
 * over the signed header fields and the DKIM-Signature field with its b= emptied.
 */
import crypto, { type KeyObject } from "node:crypto";

export interface DkimResult {
  ok: boolean;
  /** Why not, when not. */
  reason?: string;
  tags: Record<string, string>;
  signedHeaders: string[];
}

export function verifyDkim(raw: string, publicKey: KeyObject | string): DkimResult {
  const split = raw.indexOf("\r\n\r\n");
  const fields = raw.slice(0, split).split(/\r\n(?![ \t])/);
  const body = raw.slice(split + 4);
  const signature = fields.find((f) => /^dkim-signature\s*:/i.test(f));
  if (!signature) return { ok: false, reason: "no DKIM-Signature", tags: {}, signedHeaders: [] };
  const tags = Object.fromEntries(
    signature
      .slice(signature.indexOf(":") + 1)
      .split(";")
      .map((tag) => tag.replace(/\s+/g, ""))
      .filter(Boolean)
      .map((tag) => [tag.slice(0, tag.indexOf("=")), tag.slice(tag.indexOf("=") + 1)]),
  );
  const signedHeaders = (tags.h ?? "").split(":").map((h) => h.toLowerCase());
  const result = (ok: boolean, reason?: string): DkimResult => ({ ok, ...(reason && { reason }), tags, signedHeaders });
  if (tags.a !== "rsa-sha256" || tags.c !== "relaxed/relaxed")
    return result(false, `unexpected a=${tags.a} c=${tags.c}`);

  const lines = body.split("\r\n").map((line) => line.replace(/[ \t]+/g, " ").replace(/ $/, ""));
  while (lines.length > 0 && lines.at(-1) === "") lines.pop();
  const canonicalBody = lines.length > 0 ? `${lines.join("\r\n")}\r\n` : "";
  const bodyHash = crypto.createHash("sha256").update(canonicalBody, "utf8").digest("base64");
  if (bodyHash !== tags.bh) return result(false, "body hash differs");

  const relaxed = (field: string) =>
    `${field.slice(0, field.indexOf(":")).trim().toLowerCase()}:${field
      .slice(field.indexOf(":") + 1)
      .replace(/\r\n/g, "")
      .replace(/[ \t]+/g, " ")
      .trim()}`;
  // Each name signed takes the last instance of its field not taken yet (bottom up).
  const used = new Set<number>();
  const signed: string[] = [];
  for (const name of signedHeaders) {
    for (let i = fields.length - 1; i >= 0; i -= 1) {
      if (used.has(i) || fields[i]!.slice(0, fields[i]!.indexOf(":")).trim().toLowerCase() !== name) continue;
      used.add(i);
      signed.push(relaxed(fields[i]!));
      break;
    }
  }
  const unsigned = relaxed(signature).replace(/(^dkim-signature:|;)(\s*b\s*=)[^;]*/i, "$1$2");
  const data = [...signed, unsigned].join("\r\n");
  const ok = crypto.verify("sha256", Buffer.from(data, "utf8"), publicKey, Buffer.from(tags.b ?? "", "base64"));
  return ok ? result(true) : result(false, "the signature does not verify");
}
