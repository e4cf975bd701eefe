/** `enquiries erase --email <address>` and `enquiries export [--format csv|jsonl]`. */
import type { EnquiryStore } from "../store/store";
import type { CliOutput } from "./cli-output";
import { exportLines } from "./export-format";

/** Erasure on a person's request: says how many, never the address (the output may be logged). */
export async function erase(store: EnquiryStore, email: string | undefined, io: CliOutput): Promise<number> {
  if (!email?.includes("@")) {
    io.err("erase needs --email <address>: npm run enquiries -- erase --email someone@example.com");
    return 2;
  }
  const erased = await store.erase(email);
  io.out(
    `erased ${erased} enquir${erased === 1 ? "y" : "ies"} of that address, with their delivery records, from ${store.where}`,
  );
  return 0;
}

export async function exportAll(store: EnquiryStore, format: string, io: CliOutput): Promise<number> {
  if (format !== "csv" && format !== "jsonl") {
    io.err(`export --format is csv or jsonl (got "${format}")`);
    return 2;
  }
  exportLines((await store.list()).enquiries, format).forEach((line) => io.out(line));
  return 0;
}
