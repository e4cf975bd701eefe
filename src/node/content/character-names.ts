/**
 * The characters that look like another one, or like nothing, with the name an editor can look up.
 * A word processor, a web page, a chat or a keyboard set to another language puts them in a file,
 * and the file then reads right to the person looking at it while YAML, or the site, reads another
 * character. One table, so that every message names a character the same way.
 */

/** Spaces other than the ordinary one: a text may hold them, YAML's own spaces may not. */
export const SPACES: Record<string, string> = {
  "\u00A0": "a non-breaking space",
  "\u1680": "an Ogham space mark",
  "\u2000": "an en quad space",
  "\u2001": "an em quad space",
  "\u2002": "an en space",
  "\u2003": "an em space",
  "\u2004": "a three-per-em space",
  "\u2005": "a four-per-em space",
  "\u2006": "a six-per-em space",
  "\u2007": "a figure space",
  "\u2008": "a punctuation space",
  "\u2009": "a thin space",
  "\u200A": "a hair space",
  "\u200B": "a zero-width space",
  "\u200C": "a zero-width non-joiner",
  "\u200D": "a zero-width joiner",
  "\u202F": "a narrow non-breaking space",
  "\u205F": "a medium mathematical space",
  "\u2060": "a word joiner",
  "\u3000": "an ideographic space",
  "\uFEFF": "a zero-width no-break space (byte order mark)",
};

/** Characters that show nothing (or only change how the text around them is shown). */
export const INVISIBLE: Record<string, string> = {
  "\u00AD": "a soft hyphen",
  "\u180E": "a Mongolian vowel separator",
  "\u200B": "a zero-width space",
  "\u200C": "a zero-width non-joiner",
  "\u200D": "a zero-width joiner",
  "\u200E": "a left-to-right mark",
  "\u200F": "a right-to-left mark",
  "\u202A": "a left-to-right embedding",
  "\u202B": "a right-to-left embedding",
  "\u202C": "a pop directional formatting",
  "\u202D": "a left-to-right override",
  "\u202E": "a right-to-left override",
  "\u2060": "a word joiner",
  "\u2061": "an invisible function application",
  "\u2062": "an invisible times",
  "\u2063": "an invisible separator",
  "\u2064": "an invisible plus",
  "\u2066": "a left-to-right isolate",
  "\u2067": "a right-to-left isolate",
  "\u2068": "a first strong isolate",
  "\u2069": "a pop directional isolate",
  "\uFEFF": "a zero-width no-break space (byte order mark)",
};

/** Joiners that scripts such as Malayalam or Devanagari, and emoji, need between two of their characters. */
export const JOINERS = new Set(["\u200C", "\u200D"]);

/** Characters that look like YAML's own punctuation, by the character they are taken for. */
export const LOOKALIKE_PUNCTUATION: Record<":" | "-" | "#", Record<string, string>> = {
  ":": {
    "\uFF1A": "a fullwidth colon",
    "\uA789": "a modifier letter colon",
    "\u2236": "a ratio sign",
    "\u02D0": "a modifier letter triangular colon",
    "\u02F8": "a modifier letter raised colon",
    "\u0589": "an Armenian full stop",
    "\u05C3": "a Hebrew punctuation sof pasuq",
    "\uFE13": "a presentation form for vertical colon",
    "\uFE55": "a small colon",
  },
  "-": {
    "\u2010": "a hyphen",
    "\u2011": "a non-breaking hyphen",
    "\u2012": "a figure dash",
    "\u2013": "an en dash",
    "\u2014": "an em dash",
    "\u2015": "a horizontal bar",
    "\u2212": "a minus sign",
    "\uFE63": "a small hyphen-minus",
    "\uFF0D": "a fullwidth hyphen-minus",
  },
  "#": {
    "\uFF03": "a fullwidth number sign",
    "\uFE5F": "a small number sign",
  },
};

/** Quotes that are not YAML's " and ': opening and closing. */
export const LOOKALIKE_QUOTES = { open: "“‘„‚«‹″′‟‛＂＇〝", close: "”’“‘»›″′＂＇〞" };

/** Letters of other alphabets that look like a Latin one (Cyrillic, Greek, fullwidth), with that letter. */
export const LOOKALIKE_LETTERS: Record<string, [script: string, latin: string]> = Object.fromEntries([
  ...pairs("Cyrillic", "аеорсухіјѕһԁԛԝӏ", "aeopcyxijshdqwl"),
  ...pairs("Cyrillic", "АВЕКМНОРСТХІЈЅУҮ", "ABEKMHOPCTXIJSYY"),
  ...pairs("Greek", "οινκρτ", "oivkpt"),
  ...pairs("Greek", "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX"),
  ...pairs("fullwidth", "ａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐｑｒｓｔｕｖｗｘｙｚ", "abcdefghijklmnopqrstuvwxyz"),
]);

function pairs(script: string, letters: string, latin: string): [string, [string, string]][] {
  return [...letters].map((letter, i) => [letter, [script, latin[i]!]]);
}

/** U+00A0 */
export const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * The characters of a table as a regular expression's character class (escaped: joiners written as themselves would
 * join).
 */
export const characterClass = (chars: Iterable<string>) =>
  `[${[...chars].map((char) => `\\u${char.codePointAt(0)!.toString(16).padStart(4, "0")}`).join("")}]`;
