/**
 * The e-mail a person gets when someone else gives them an enquiry in the inbox, when mail is set up
 * (SMTP_URL and a sender, as the invitation's: ./invite-mail). It carries the enquiry's link and who
 * gave it, and nothing the visitor sent (no name, address or message): mail leaves the company's
 * control, the inbox does not, so the link is all it needs. Taking an enquiry oneself mails no one.
 *
 * The mail is sent after the change is stored and answered: a mail server that is slow or refuses
 * never delays, fails or undoes the change; the failure is logged (without the person's address).
 */
import type { SendMailOptions } from "nodemailer";
import type { EnquiryConfig } from "../core/config";
import { singleLine, smtpTransport } from "../mail/mailer";
import type { JsonLog } from "../../service/json-log";
import type { EnquiryStore } from "../store/store";
import type { Person } from "../store/inbox-store";
import type { Route } from "./routes";

export const WORK_PATH = "/inbox/api/enquiries/:id/work";

export interface OwnerMail {
  owner: Pick<Person, "email" | "name">;
  givenBy: string;
  link: string;
}

export interface OwnerMailer {
  send(mail: OwnerMail): Promise<void>;
}

/** Undefined when mail is not set up: the owner sees the enquiry in the inbox's list (owner filter). */
export function createOwnerMailer(config: EnquiryConfig): OwnerMailer | undefined {
  const { smtpUrl, from } = config;
  if (!smtpUrl || !from) return undefined;
  const transport = smtpTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail(composeOwnerMail(mail, from, config.siteOrigin));
    },
  };
}

export function enquiryLink(siteOrigin: string, enquiryId: string): string {
  return `${siteOrigin}/inbox/?id=${encodeURIComponent(enquiryId)}`;
}

export function composeOwnerMail(mail: OwnerMail, from: string, siteOrigin: string): SendMailOptions {
  const name = singleLine(mail.owner.name);
  const givenBy = singleLine(mail.givenBy);
  return {
    from,
    to: { name, address: mail.owner.email },
    subject: `${givenBy} gave you an enquiry in the inbox`,
    text: [
      `Hello ${name},`,
      "",
      `${givenBy} gave you an enquiry in the enquiry inbox of ${siteOrigin}:`,
      "",
      mail.link,
      "",
      "Open it to read the enquiry (signed in with your passkey): this e-mail holds nothing of it.",
    ].join("\n"),
  };
}

/**
 * The work route, the same, and then the mail when its change gave the enquiry to someone other than
 * the person who made it. The state before is read first: when its version is the one the change was
 * made on, it is exactly the state the change replaced (any change between would have been a 409).
 */
export function mailingOwners(
  routes: Route[],
  store: EnquiryStore,
  mailer: OwnerMailer | undefined,
  siteOrigin: string,
  log: JsonLog,
): Route[] {
  if (!mailer) return routes;
  return routes.map((route) => {
    if (route.method !== "POST" || route.path !== WORK_PATH) return route;
    return {
      ...route,
      async handle(request) {
        const id = request.params.id!;
        const before = await store.inbox.work(id);
        const answer = await route.handle(request);
        const ownerId = request.body.ownerId;
        const given =
          answer.status === 200 &&
          before !== undefined &&
          before.version === request.body.version &&
          typeof ownerId === "number" &&
          ownerId !== before.ownerId &&
          ownerId !== request.person.id;
        if (given) void mailOwner(ownerId, id, request.person.name);
        return answer;
      },
    };
  });

  async function mailOwner(ownerId: number, enquiryId: string, givenBy: string): Promise<void> {
    try {
      const owner = await store.inbox.person(ownerId);
      if (!owner || owner.revokedAt) return;
      await mailer!.send({ owner, givenBy, link: enquiryLink(siteOrigin, enquiryId) });
      log("info", "inbox owner e-mailed", { enquiry: enquiryId });
    } catch (error) {
      // The code, not the message: an SMTP server's refusal may quote the person's address.
      const { code, name } = error as { code?: unknown; name?: string };
      log("warn", "inbox owner e-mail failed", { enquiry: enquiryId, error: String(code ?? name ?? "error") });
    }
  }
}
