/**
 * A small, independent reader of the single-part messages nodemailer writes: unfolded headers with
 * RFC 2047 encoded words decoded, and the body decoded from its transfer encoding.
 */
export interface Mail {
  /** Header lines as sent (names as written, values unfolded but not decoded). */
  rawHeaders: Array<[string, string]>;
  header(name: string): string | undefined;
  text: string;
}

export function parseMail(raw: string): Mail {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n(?=[ \t])/g, "");
  const rawHeaders = head.split("\r\n").map((line): [string, string] => {
    const colon = line.indexOf(":");
    return [line.slice(0, colon), line.slice(colon + 1).trim()];
  });
  const header = (name: string) => {
    const found = rawHeaders.find(([n]) => n.toLowerCase() === name.toLowerCase());
    return found ? decodeWords(found[1]) : undefined;
  };
  const encoding = (header("content-transfer-encoding") ?? "7bit").toLowerCase();
  const body = raw.slice(split + 4).replace(/\r\n$/, "");
  const text =
    encoding === "base64"
      ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
      : encoding === "quoted-printable"
        ? qpBytes(body.replace(/=\r\n/g, "")).toString("utf8")
        : body;
  return { rawHeaders, header, text: text.replace(/\r\n/g, "\n") };
}

const WORD = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;

/** Encoded words; adjacent ones are joined as bytes first (a character may be split between them). */
function decodeWords(value: string): string {
  return value.replace(/(?:=\?[^?]+\?[BbQq]\?[^?]*\?=\s*)+/g, (run) => {
    const trailing = run.match(/\s*$/)![0];
    const bytes = [...run.matchAll(WORD)].map(([, , kind, data = ""]) =>
      kind!.toUpperCase() === "B" ? Buffer.from(data, "base64") : qpBytes(data.replace(/_/g, " ")),
    );
    return Buffer.concat(bytes).toString("utf8") + trailing;
  });
}

function qpBytes(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    if (text[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(text.charCodeAt(i));
  }
  return Buffer.from(bytes);
}
