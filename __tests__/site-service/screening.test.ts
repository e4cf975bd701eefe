/**
 * The spam screening's rules on their own (src/site-service/enquiries/screening): what counts as a link,
 * as markup, as a shortener, as a filled honeypot, and the verdict they make. The fixtures' figures
 * are in screening-fixtures.test.ts.
 */
import { findLinks, hasBbcodeLink, hasHtmlLink, hasMarkup } from "../../src/site-service/enquiries/screening/links";
import { honeypotFilled, screenEnquiry, SIGNALS } from "../../src/site-service/enquiries/screening/screen";
import { isShortener, URL_SHORTENERS } from "../../src/site-service/enquiries/screening/shorteners";
import { validEnquiry } from "./support/harness";

const HONEYPOT = "cyrus_confirm_field";
const screen = (fields: Partial<typeof validEnquiry>, body: Record<string, unknown> = { [HONEYPOT]: "" }) =>
  screenEnquiry({ ...validEnquiry, ...fields }, body);

describe("links", () => {
  test.each([
    ["https://www.trivexabio.com/pipeline", "www.trivexabio.com"],
    ["see http://example.org.", "example.org"],
    ["ftp://files.example.net/protocol.pdf", "files.example.net"],
    ["www.seo-boost.com", "www.seo-boost.com"],
    ["WWW.SEO-BOOST.COM", "www.seo-boost.com"],
    ["order at seo-boost.com/order today", "seo-boost.com"],
    ["bit.ly/3xKq9Zp", "bit.ly"],
    ["(https://clinicaltrials.gov/study/NCT05987654)", "clinicaltrials.gov"],
    ["https://münchen.de/studie", "xn--mnchen-3ya.de"],
  ])("%s is a link to %s", (text, host) => {
    expect(findLinks(text).map((l) => l.host)).toEqual([host]);
  });

  test.each([
    ["degrees and initials", "Priya Raman M.Sc, J.Li, S.Ai"],
    ["a file name", "please see README.md"],
    ["a bare domain with no path", "we are trivexabio.com"],
    ["an e-mail address", "write to ananya.iyer@trivexabio.com or mailto:x@example.com"],
    ["a protocol-relative path", "//cdn.example.com/x"],
    ["a DOI and a version", "doi 10.1056/NEJMoa2034577, v1.2.3"],
    ["drug names and prices", "metformin 1000 mg, semaglutide, ₹4.5 crore, $12,400"],
  ])("%s is not a link", (_what, text) => {
    expect(findLinks(text)).toEqual([]);
  });

  test("HTML and BBCode links, and markup in a name", () => {
    expect(hasHtmlLink('<a href="https://x.example">x</a>')).toBe(true);
    expect(hasHtmlLink("<A class=x HREF=https://x.example>x</A>")).toBe(true);
    expect(hasHtmlLink("a <b>bold</b> claim")).toBe(false);
    expect(hasBbcodeLink("[url=https://x.example]x[/url]")).toBe(true);
    expect(hasBbcodeLink("[URL]https://x.example[/URL]")).toBe(true);
    expect(hasBbcodeLink("[link=https://x.example]x[/link]")).toBe(true);
    expect(hasBbcodeLink("see [1] and [ref 2]")).toBe(false);
    for (const name of [
      "<b>Win</b> a prize",
      '<a href="https://x.example">Loans</a>',
      "x<br/>",
      "[b]Win[/b]",
      "[url=x]",
    ])
      expect([name, hasMarkup(name)]).toEqual([name, true]);
    for (const name of ["Priya <priya@example.in>", "a < b > c", "Priya [CRA]", "Dr. S. Bala (Chennai)"])
      expect([name, hasMarkup(name)]).toEqual([name, false]);
  });

  test("shorteners: the list's hosts, under www. and in any case; platform links are not", () => {
    expect(URL_SHORTENERS.size).toBeGreaterThan(10);
    for (const host of ["bit.ly", "www.bit.ly", "tinyurl.com", "t.co", "cutt.ly"])
      expect([host, isShortener(host)]).toEqual([host, true]);
    for (const host of ["youtu.be", "lnkd.in", "wa.me", "maps.app.goo.gl", "bitly.example.com"])
      expect([host, isShortener(host)]).toEqual([host, false]);
    expect(findLinks("HTTPS://BIT.LY/X").map((l) => isShortener(l.host))).toEqual([true]);
  });
});

describe("the honeypot", () => {
  test.each<[string, Record<string, unknown>, boolean]>([
    ["empty, as a person's form sends it", { [HONEYPOT]: "" }, false],
    ["blanks only", { [HONEYPOT]: "  \n" }, false],
    ["missing (an older page, an API client)", {}, false],
    ["null", { [HONEYPOT]: null }, false],
    ["on the prototype only", Object.create({ [HONEYPOT]: "x" }) as Record<string, unknown>, false],
    ["text", { [HONEYPOT]: "http://spam.example" }, true],
    ["a number", { [HONEYPOT]: 0 }, true],
    ["an object", { [HONEYPOT]: { a: 1 } }, true],
  ])("%s: filled is %s", (_what, body, filled) => {
    expect(honeypotFilled(body)).toBe(filled);
  });
});

describe("the verdict", () => {
  test("a plain enquiry is clean, with no signal", () => {
    expect(screen({})).toEqual({ verdict: "clean", signals: [] });
  });

  test("two links in a message are an enquiry's; three are a signal", () => {
    const two = "Pipeline: https://a.example/p and protocol https://b.example/x.pdf";
    expect(screen({ message: two }).verdict).toBe("clean");
    expect(screen({ message: `${two}, and https://c.example` })).toEqual({
      verdict: "suspect",
      signals: ["urls-in-message"],
    });
  });

  test("each signal, in the order SIGNALS lists them, and several at once", () => {
    expect(screen({}, { [HONEYPOT]: "John" }).signals).toEqual(["honeypot"]);
    expect(screen({ name: "SEO https://seo.example" }).signals).toEqual(["url-in-name"]);
    expect(screen({ name: "<b>Win</b>" }).signals).toEqual(["markup-in-name"]);
    expect(screen({ message: '<a href="https://x.example">x</a>' }).signals).toEqual(["html-link"]);
    expect(screen({ message: "[url=https://x.example]x[/url]" }).signals).toEqual(["bbcode-link"]);
    expect(screen({ message: "claim it: https://bit.ly/3xKq9Zp" }).signals).toEqual(["url-shortener"]);
    expect(screen({ name: "Loans https://t.co/x" }).signals).toEqual(["url-in-name", "url-shortener"]);
    const all = screen(
      {
        name: '<a href="https://t.co/x">Loans</a>',
        message: '<a href="https://a.example/1">1</a> [url=https://b.example]2[/url] https://a.example/3 www.a.com',
      },
      { [HONEYPOT]: "x" },
    );
    expect(all).toEqual({ verdict: "suspect", signals: Object.keys(SIGNALS) });
  });

  test("no rule on language, script, drugs or prices", () => {
    const message =
      "Прошу прислать цену: semaglutide (Ozempic) 1 mg, pembrolizumab, виагра — 价格 ₹4.5 crore, $499. வணக்கம்!";
    expect(screen({ name: "Денис 王芳 முருகன்", message })).toEqual({ verdict: "clean", signals: [] });
  });
});
