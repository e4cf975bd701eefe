/**
 * What the inbox's picture tools (./inbox-pictures.ts, ./inbox-reply-pictures.ts) share: where the
 * pictures go, a page as a person at a desk sees it (a virtual authenticator for the passkey, still,
 * in India's time), and each picture saved as a small palette PNG, refused when it grows too big.
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import sharp from "sharp";
import { pageWithAuthenticator } from "../../__tests__/deploy/support/inbox-people";
import { projectRoot } from "../../__tests__/support/serve";

export const INBOX_PICTURES = "docs/images/inbox";
export const DESKTOP = { width: 1280, height: 900 };
/** Each picture's most, so the docs stay light to clone and to read on a phone. */
const MAX_BYTES = 150_000;
export const LIMIT_MS = 15_000;

/** A page at 1280 px with its own virtual authenticator; the pictures' folder made. */
export async function picturePage(browser: Browser): Promise<Page> {
  fs.mkdirSync(path.join(projectRoot, INBOX_PICTURES), { recursive: true });
  const context = await browser.newContext({
    viewport: DESKTOP,
    deviceScaleFactor: 1,
    reducedMotion: "reduce",
    locale: "en-GB",
    timezoneId: "Asia/Kolkata",
  });
  context.setDefaultTimeout(LIMIT_MS);
  return pageWithAuthenticator(context);
}

/** Saves `shot` as a palette PNG under INBOX_PICTURES; returns its size. */
export async function savePicture(shot: Buffer, name: string): Promise<number> {
  const png = await sharp(shot).png({ palette: true, colours: 64, compressionLevel: 9, effort: 10 }).toBuffer();
  if (png.length > MAX_BYTES) throw new Error(`${name}: ${png.length} bytes, more than ${MAX_BYTES}`);
  fs.writeFileSync(path.join(projectRoot, INBOX_PICTURES, name), png);
  console.log(`${INBOX_PICTURES}/${name}: ${(png.length / 1024).toFixed(0)} KB`);
  return png.length;
}
