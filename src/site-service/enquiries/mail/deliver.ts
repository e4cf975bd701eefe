/** Errors of a delivery (the mailer's, the webhook's fetch) as the log and the store keep them. */

/** An error as one short line for the log and the store (nodemailer adds a code: ECONNREFUSED, EAUTH). */
export function describe(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === "string" ? message : String(error);
  return (typeof code === "string" && !text.includes(code) ? `${code}: ${text}` : text)
    .replace(/\s+/g, " ")
    .slice(0, 300);
}
