/**
 * The invitation's e-mail, when mail is set up (SMTP_URL and a sender: ENQUIRY_FROM, or the first of
 * ENQUIRY_TO): the link, how long it is valid, and what it is for. Through the same SMTP transport
 * as the enquiries' e-mail, with its bounded waits.
 */
import type { SendMailOptions } from "nodemailer";
import type { EnquiryConfig } from "../core/config";
import { singleLine, smtpTransport } from "../mail/mailer";

export interface InvitationMailer {
  send(invitation: { email: string; name: string; link: string; expiresAt: string }): Promise<void>;
}

/** Undefined when mail is not set up: the operator passes the printed link on themselves. */
export function createInvitationMailer(config: EnquiryConfig): InvitationMailer | undefined {
  const { smtpUrl, from } = config;
  if (!smtpUrl || !from) return undefined;
  const transport = smtpTransport(smtpUrl);
  return {
    async send(invitation) {
      await transport.sendMail(composeInvitation(invitation, from, config.siteOrigin));
    },
  };
}

export function composeInvitation(
  invitation: { email: string; name: string; link: string; expiresAt: string },
  from: string,
  siteOrigin: string,
): SendMailOptions {
  const name = singleLine(invitation.name);
  return {
    from,
    to: { name, address: invitation.email },
    subject: "Your access to the website's enquiry inbox",
    text: [
      `Hello ${name},`,
      "",
      `You are invited to the enquiry inbox of ${siteOrigin}. Open this link on the device you will use,`,
      "and create a passkey (your phone's or computer's screen lock, or a security key): no password.",
      "",
      invitation.link,
      "",
      `The link works once, until ${invitation.expiresAt} (24 hours). If it has expired, ask for a new one.`,
      "If you did not expect this e-mail, delete it.",
    ].join("\n"),
  };
}
