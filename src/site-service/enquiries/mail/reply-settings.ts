/**
 * The settings of the replies the inbox's people send a visitor (../inbox/reply-routes): from the
 * company's address (ENQUIRY_REPLY_FROM), answers to it or to ENQUIRY_REPLY_TO, DKIM-signed when
 * the operator gives the domain, the selector and the private key's file (ENQUIRY_DKIM_DOMAIN,
 * ENQUIRY_DKIM_SELECTOR, ENQUIRY_DKIM_KEY_FILE: all three or none). The key file is refused, at
 * start, when other users may read or change it, as the release's settings file is.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import addressparser from "nodemailer/lib/addressparser";
import { ConfigError } from "../../service/env";

export interface ReplySettings {
  /** The From of every reply: the company's address, as "Name <address>" or the address. */
  from: string;
  /** Where the visitor's answer goes (ENQUIRY_REPLY_TO; unset: from). */
  replyTo: string;
  dkim?: { domainName: string; keySelector: string; privateKey: string };
}

/** One plain ASCII address: what the header gets once nodemailer's parser has read the setting. */
export const PLAIN_ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;

export function replySettings(
  value: (name: string) => string | undefined,
  projectRoot: string,
): ReplySettings | undefined {
  const from = address("ENQUIRY_REPLY_FROM", value("ENQUIRY_REPLY_FROM"));
  const replyTo = address("ENQUIRY_REPLY_TO", value("ENQUIRY_REPLY_TO"));
  const dkim = dkimSettings(value, projectRoot);
  if (!from) {
    if (replyTo || dkim) throw new ConfigError("ENQUIRY_REPLY_TO and ENQUIRY_DKIM_* need ENQUIRY_REPLY_FROM as well");
    return undefined;
  }
  return { from, replyTo: replyTo ?? from, ...(dkim && { dkim }) };
}

function address(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  // Read as nodemailer will read it: exactly one address, plain ASCII, whatever its name.
  const parsed = /[\r\n]/.test(raw) ? [] : addressparser(raw, { flatten: true });
  if (parsed.length !== 1 || !PLAIN_ADDRESS.test(parsed[0]!.address)) {
    throw new ConfigError(`${name} must be one e-mail address, or a name and the address in <>, on one line`);
  }
  return raw;
}

function dkimSettings(value: (name: string) => string | undefined, projectRoot: string): ReplySettings["dkim"] {
  const names = ["ENQUIRY_DKIM_DOMAIN", "ENQUIRY_DKIM_SELECTOR", "ENQUIRY_DKIM_KEY_FILE"] as const;
  const [domainName, keySelector, keyFile] = names.map((name) => value(name));
  if (!domainName && !keySelector && !keyFile) return undefined;
  if (!domainName || !keySelector || !keyFile) throw new ConfigError(`${names.join(", ")} are set together`);
  if (!/^[A-Za-z0-9.-]+$/.test(domainName)) throw new ConfigError("ENQUIRY_DKIM_DOMAIN must be a domain name");
  if (!/^[A-Za-z0-9._-]+$/.test(keySelector)) throw new ConfigError("ENQUIRY_DKIM_SELECTOR must be a selector's name");
  const file = path.resolve(projectRoot, keyFile);
  let mode: number;
  let privateKey: string;
  try {
    mode = fs.statSync(file).mode & 0o777;
    privateKey = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(`ENQUIRY_DKIM_KEY_FILE: cannot read ${file} (${(error as Error).message})`);
  }
  if ((mode & 0o007) !== 0) {
    throw new ConfigError(
      `ENQUIRY_DKIM_KEY_FILE: ${file} may be read or changed by other users (mode ${mode.toString(8)}); it holds ` +
        `the DKIM private key. Run: chmod 600 ${file} (or 640, its group the service's)`,
    );
  }
  // nodemailer signs with rsa-sha256 alone: an Ed25519 or EC key would pass here and fail at each send.
  let type: string | undefined;
  try {
    type = crypto.createPrivateKey(privateKey).asymmetricKeyType;
  } catch {
    throw new ConfigError(`ENQUIRY_DKIM_KEY_FILE: ${file} holds no private key in PEM form`);
  }
  if (type !== "rsa") {
    throw new ConfigError(
      `ENQUIRY_DKIM_KEY_FILE: ${file} holds an ${type} key; DKIM signing here takes an RSA key ` +
        "(openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048)",
    );
  }
  return { domainName, keySelector, privateKey };
}
