/**
 * Spam screening: signals that a post is a script's or a spammer's, never a reason to refuse it.
 * A suspect enquiry is stored, e-mailed (flagged) and answered exactly as a clean one; only the
 * company is told. Losing a real lead costs more than reading a spam message, so the signals are
 * few and concrete, each one something a person writing to a CRO does not do:
 *
 *   honeypot        the form's hidden field was filled in (people never see it; scripts fill every
 *                   input). A body without its key (an older page, an API client) is not a signal.
 *   urls-in-message three or more links in the message (genuine enquiries link a site or two)
 *   url-in-name     a link in the name
 *   markup-in-name  an HTML or BBCode tag in the name
 *   html-link       an HTML link, <a href=…>, in the message (a plain-text form shows it as code)
 *   bbcode-link     a BBCode link, [url=…], in the message (forum markup)
 *   url-shortener   a link through a public URL shortener (./shorteners.ts), in the name or message
 *
 * Deliberately absent: rules on language or script, and lists of words, drugs or phrases. A CRO's
 * real enquiries name drugs, ask for prices and come in many scripts; __tests__/fixtures holds 88
 * of them in 16 languages, none of which may be flagged.
 */
import { HONEYPOT_FIELD, type Enquiry } from "../../../enquiry-contract/enquiry-fields";
import { findLinks, hasBbcodeLink, hasHtmlLink, hasMarkup } from "./links";
import { isShortener } from "./shorteners";

/** What each signal means, for the e-mail and the listing. */
export const SIGNALS = {
  honeypot: 'the hidden field that visitors never see ("Leave this empty") was filled in',
  "urls-in-message": "three or more links in the message",
  "url-in-name": "a link in the name",
  "markup-in-name": "HTML or BBCode in the name",
  "html-link": "an HTML link (<a href=…>) in the message",
  "bbcode-link": "a BBCode link ([url=…]) in the message",
  "url-shortener": "a link through a URL shortener, which hides where it leads",
} as const;

export type Signal = keyof typeof SIGNALS;

/** The receiver's verdict on an enquiry, stored with it ("screening" in its line). */
export interface Screening {
  verdict: "clean" | "suspect";
  /** Signal names (SIGNALS); a line written by a later version may hold names this one does not know. */
  signals: readonly string[];
}

/** The fewest links in a message that make it a signal. */
export const MANY_LINKS = 3;

/**
 * body: the request's parsed body, for the honeypot (validation never copies it into the enquiry);
 * the enquiry: its validated fields.
 */
export function screenEnquiry(enquiry: Enquiry, body: Readonly<Record<string, unknown>>): Screening {
  const nameLinks = findLinks(enquiry.name);
  const messageLinks = findLinks(enquiry.message);
  const found: Record<Signal, boolean> = {
    honeypot: honeypotFilled(body),
    "urls-in-message": messageLinks.length >= MANY_LINKS,
    "url-in-name": nameLinks.length > 0,
    "markup-in-name": hasMarkup(enquiry.name),
    "html-link": hasHtmlLink(enquiry.message),
    "bbcode-link": hasBbcodeLink(enquiry.message),
    "url-shortener": [...nameLinks, ...messageLinks].some((link) => isShortener(link.host)),
  };
  const signals = (Object.keys(SIGNALS) as Signal[]).filter((signal) => found[signal]);
  return { verdict: signals.length > 0 ? "suspect" : "clean", signals };
}

/**
 * Anything in the honeypot but blanks: a value of any type counts (a script may send a number);
 * a missing key or null does not (an older page or an API client that knows nothing of it).
 */
export function honeypotFilled(body: Readonly<Record<string, unknown>>): boolean {
  const value = Object.hasOwn(body, HONEYPOT_FIELD) ? body[HONEYPOT_FIELD] : undefined;
  if (value === undefined || value === null) return false;
  return typeof value !== "string" || value.trim() !== "";
}

/** A signal's meaning, or its name when it comes from a version that knows more signals. */
export const describeSignal = (signal: string): string =>
  Object.hasOwn(SIGNALS, signal) ? SIGNALS[signal as Signal] : signal;
