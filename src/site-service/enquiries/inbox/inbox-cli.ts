/**
 * The operator's side of the inbox: `enquiries invite <e-mail> --name "<name>"`, `people`,
 * `revoke <e-mail>` and `audit`. Who may sign in is decided on the server only, by whoever may run
 * the CLI there: the inbox itself has no way to add a person.
 */
import type { EnquiryConfig } from "../core/config";
import type { EnquiryStore } from "../store/store";
import type { CliOutput } from "../cli/cli-output";
import { createInvitationMailer, type InvitationMailer } from "./invite-mail";
import { hashSecret, INVITATION_TTL_MS, invitationLink, newSecret } from "./secrets";

// One address, no display name, no list: it becomes the person's identity and a mail's recipient.
const ADDRESS = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

export async function invite(
  store: EnquiryStore,
  config: EnquiryConfig,
  email: string,
  name: string | undefined,
  io: CliOutput,
  now: () => number,
  mailer: InvitationMailer | undefined = createInvitationMailer(config),
): Promise<number> {
  const address = email.trim().toLowerCase();
  if (!ADDRESS.test(address)) {
    io.err(
      `invite needs an e-mail address (got "${email}"): npm run enquiries -- invite someone@example.com --name "…"`,
    );
    return 2;
  }
  if (!name?.trim()) {
    io.err(`invite needs the person's name: npm run enquiries -- invite ${address} --name "Their Name"`);
    return 2;
  }
  const token = newSecret();
  const at = new Date(now());
  const expiresAt = new Date(at.getTime() + INVITATION_TTL_MS).toISOString();
  const person = await store.inbox.invite(address, name, hashSecret(token), at.toISOString(), expiresAt);
  const link = invitationLink(config.siteOrigin, token);
  io.out(`invited ${person.name} <${person.email}> to the inbox; their link, valid once until ${expiresAt}:`);
  io.out(link);
  if (!mailer) {
    io.out("mail is not set up (SMTP_URL, ENQUIRY_FROM or ENQUIRY_TO): pass the link on yourself, privately");
    return 0;
  }
  try {
    await mailer.send({ email: person.email, name: person.name, link, expiresAt });
    io.out(`e-mailed it to ${person.email}`);
    return 0;
  } catch (error) {
    io.err(`warning: the e-mail could not be sent (${(error as Error).message}): pass the link on yourself`);
    return 1;
  }
}

export async function people(store: EnquiryStore, io: CliOutput, now: () => number): Promise<number> {
  const list = await store.inbox.people(new Date(now()).toISOString());
  for (const p of list) {
    const state = p.revokedAt
      ? `revoked ${p.revokedAt}`
      : p.passkeys > 0
        ? "has access"
        : p.invitedUntil
          ? `invited, link valid until ${p.invitedUntil}`
          : "invitation expired: invite again";
    const counts = p.revokedAt ? "" : `; ${plural(p.passkeys, "passkey")}, ${plural(p.sessions, "session")}`;
    // A passkey's counter went backwards: someone else may hold a copy of it (it is refused each time).
    const clone = p.possibleCloneAt
      ? `; possible cloned passkey at ${p.possibleCloneAt}: revoke, then invite them again`
      : "";
    io.out(`${p.email}  ${p.name}  ${state}${counts}${clone}`);
  }
  const active = list.filter((p) => !p.revokedAt).length;
  io.out(
    `${plural(active, "person", "people")} with access or invited, ${list.length - active} revoked, in ${store.where}`,
  );
  return 0;
}

export async function revoke(store: EnquiryStore, email: string, io: CliOutput, now: () => number): Promise<number> {
  const result = await store.inbox.revoke(email, new Date(now()).toISOString());
  if (!result) {
    io.err(`no one with the address ${email.trim().toLowerCase()} in ${store.where} (npm run enquiries -- people)`);
    return 1;
  }
  io.out(
    result.alreadyRevoked
      ? `${email.trim().toLowerCase()} had no access already`
      : `revoked ${email.trim().toLowerCase()}: signed out everywhere (${plural(result.sessions, "session")} ended)`,
  );
  return 0;
}

/**
 * One line each: when, who (a person's e-mail, or "operator <account> (CLI)"), what (list, view,
 * export, erase), of what (ids, counts and kinds of filter: nothing a visitor sent, no words searched).
 */
export async function audit(store: EnquiryStore, io: CliOutput): Promise<number> {
  const entries = await store.inbox.audit();
  for (const e of entries) io.out(`${e.at}  ${e.who ?? "(unknown)"}  ${e.action}  ${e.subject}`);
  io.out(
    `${plural(entries.length, "entry", "entries")} (lists and searches, views, exports, erasures) recorded in ${store.where}`,
  );
  return 0;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
