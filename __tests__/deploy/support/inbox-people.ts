/**
 * The inbox's people on the production stack (./stack.ts), for its browser test
 * (../browser/inbox.spec.ts) and the docs' pictures (tools/docs/inbox-pictures.ts): the stack reached
 * as http://localhost:<port> (passkeys need a secure context and a relying party that is a host name,
 * and localhost is both), enquiries sent as the contact form sends them, the operator's invitation,
 * and a browser page with a virtual authenticator of the DevTools protocol's WebAuthn domain.
 */
import { spawnSync } from "node:child_process";
import type { BrowserContext, Page } from "@playwright/test";
import { projectRoot, startStack, type Stack } from "./stack";

export interface InboxStack {
  stack: Stack;
  /** http://localhost:<nginx's port>: SITE_URL, the passkeys' origin. */
  site: string;
}

/** serviceEnv: more of the service's settings (the docs' pictures set up replies). */
export async function startInboxStack(serviceEnv: Record<string, string> = {}): Promise<InboxStack> {
  let site = "";
  const stack = await startStack({
    serviceEnv,
    prepare: ({ origin }) => {
      site = origin.replace("//127.0.0.1:", "//localhost:");
      return { SITE_URL: site };
    },
  });
  return { stack, site };
}

export interface SentEnquiry {
  name: string;
  email: string;
  message: string;
  phone?: string;
}

/** An enquiry through the site's own endpoint, as the contact form sends it; throws unless stored (201). */
export async function sendEnquiry(stack: Stack, enquiry: SentEnquiry): Promise<void> {
  const res = await fetch(`${stack.origin}/api/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ phone: "", ...enquiry }),
    signal: AbortSignal.timeout(10_000),
  });
  if (res.status !== 201) throw new Error(`POST /api/email answered ${res.status}: ${await res.text()}`);
}

/** The operator's `npm run enquiries -- invite` against the stack's store; the link it prints. */
export function inviteLink({ stack, site }: InboxStack, email: string, name: string): string {
  const run = spawnSync("npm", ["run", "--silent", "enquiries", "--", "invite", email, "--name", name], {
    cwd: projectRoot,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, ENQUIRY_DATA_DIR: stack.dataDir, SITE_URL: site, SMTP_URL: "", ENQUIRY_TO: "" },
  });
  if (run.status !== 0) throw new Error(`invite exited ${run.status}:\n${run.stdout}${run.stderr}`);
  const link = /\S+\/inbox\/welcome#\S+/.exec(run.stdout)?.[0];
  if (!link?.startsWith(`${site}/inbox/welcome#`)) throw new Error(`invite printed no link of ${site}:\n${run.stdout}`);
  return link;
}

/**
 * A page of its own context, with its own virtual authenticator (CTAP2, built in, resident keys, user verification).
 */
export async function pageWithAuthenticator(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return page;
}

/** Opens an invitation's link and makes the passkey, as the person would; resolves once signed in. */
export async function acceptInvitation(page: Page, link: string, name: string): Promise<void> {
  await page.goto(link);
  await page.getByRole("button", { name: "Create a passkey" }).click();
  await page.getByText(`Signed in as ${name}`).waitFor({ timeout: 15_000 });
}
