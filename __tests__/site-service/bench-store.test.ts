/**
 * openBenchStore, the benchmark's way into the store (`npm run bench:enquiries`): it fills the store
 * from JSON-lines files, as the store's import does, and with secureDelete false an erased enquiry's
 * bytes stay in the SQLite file (what the benchmark compares against), while by default they are gone,
 * as with every store the service opens.
 */
import fs from "node:fs";
import path from "node:path";
import { openBenchStore } from "../../src/site-service";
import { tempDir } from "./support/harness";

const WORD = "Xylocarpine";

function line(id: string, email: string, message: string): string {
  const enquiry = { v: 3, id, receivedAt: "2026-11-20T09:00:00.000Z", name: "Zeb Q", phone: "+44 20 7946 0958" };
  return `${JSON.stringify({ ...enquiry, email, message, screening: { verdict: "clean", signals: [] }, delivery: "pending" })}\n`;
}

/**
 * A store filled from enquiries.jsonl with one enquiry to erase and one to keep; the erased one's bytes left on disk.
 */
async function eraseOne(secureDelete?: boolean): Promise<{ imported: number; erased: number; left: boolean }> {
  const dir = tempDir();
  fs.writeFileSync(
    path.join(dir, "enquiries.jsonl"),
    line("e-1", "zeb@example.org", `${WORD} protocol. `.repeat(40)) +
      line("e-2", "arun@example.in", "A quote, please."),
  );
  const { store, report } = await openBenchStore(
    { ENQUIRY_DATA_DIR: dir },
    secureDelete === undefined ? {} : { secureDelete },
  );
  let erased: number;
  try {
    erased = (await store.erase("zeb@example.org")).enquiries;
  } finally {
    await store.close();
  }
  const left = fs
    .readdirSync(dir)
    .some((name) => fs.readFileSync(path.join(dir, name)).includes(Buffer.from(WORD, "utf8")));
  fs.rmSync(dir, { recursive: true, force: true });
  return { imported: report.imported.enquiries, erased, left };
}

test("by default the store is the service's: the erased enquiry's bytes are gone from the files", async () => {
  expect(await eraseOne()).toEqual({ imported: 2, erased: 1, left: false });
});

test("with secureDelete false, the same erasure leaves them in the file: secure_delete is off", async () => {
  expect(await eraseOne(false)).toEqual({ imported: 2, erased: 1, left: true });
});
