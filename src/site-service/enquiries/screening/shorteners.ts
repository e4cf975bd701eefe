/**
 * Hosts of public URL shorteners: anyone can make a link there, anonymously, that hides where it
 * leads; a company writing to a CRO links its own site, a registry or a shared document instead.
 * Kept short and by hand: the services spam actually uses. Left out on purpose, because they lead
 * only into their own platform and people share them every day: youtu.be, lnkd.in, amzn.to, wa.me
 * (the site's own messaging link), g.co, maps.app.goo.gl, forms.gle.
 */
export const URL_SHORTENERS: ReadonlySet<string> = new Set([
  "adf.ly",
  "bit.ly",
  "bitly.com",
  "bl.ink",
  "buff.ly",
  "clck.ru",
  "cutt.ly",
  "goo.gl",
  "is.gd",
  "ow.ly",
  "qr.ae",
  "rb.gy",
  "rebrand.ly",
  "s.id",
  "shorte.st",
  "shorturl.at",
  "t.co",
  "t.ly",
  "tiny.cc",
  "tinyurl.com",
  "u.to",
  "v.gd",
]);

/** The host, or the domain it is under (www.bit.ly is bit.ly), is a shortener's. */
export function isShortener(host: string): boolean {
  const bare = host.replace(/^www\./, "");
  return URL_SHORTENERS.has(bare);
}
