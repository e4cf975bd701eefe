/** `npm run bench:enquiries` options: counts, each a whole number, 0 to leave that part out. */
import { parseArgs } from "node:util";

export interface EnquiryBenchOptions {
  /** Enquiries sent at once to the service (the bursts). */
  concurrent: number;
  /** Enquiries e-mailed through the service to measure the store's size. */
  sizeCount: number;
  /** The store erased from and purged (filled by an import). */
  enquiries: number;
  /** Enquiries stored one after the other through the store, secure_delete on then off (SQLite). */
  stores: number;
  /** The store backed up and restored (filled by an import). */
  backups: number;
}

const DEFAULTS: EnquiryBenchOptions = {
  concurrent: 500,
  sizeCount: 10_000,
  enquiries: 100_000,
  stores: 2_000,
  backups: 100_000,
};

export const USAGE =
  "npm run bench:enquiries -- [--concurrent 500] [--size-count 10000] [--enquiries 100000] [--stores 2000] [--backups 100000]" +
  " [--save-report] [--help]   (0: leave that part out)";

export function parseBenchOptions(args: string[]): EnquiryBenchOptions {
  const { values } = parseArgs({
    args,
    options: {
      concurrent: { type: "string" },
      "size-count": { type: "string" },
      enquiries: { type: "string" },
      stores: { type: "string" },
      backups: { type: "string" },
    },
  });
  const count = (name: string, value: string | undefined, fallback: number): number => {
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value.replace(/[_,]/g, ""))) throw new Error(`--${name} ${value}: a whole number is needed\n${USAGE}`);
    return Number(value.replace(/[_,]/g, ""));
  };
  const options = {
    concurrent: count("concurrent", values.concurrent, DEFAULTS.concurrent),
    sizeCount: count("size-count", values["size-count"], DEFAULTS.sizeCount),
    enquiries: count("enquiries", values.enquiries, DEFAULTS.enquiries),
    stores: count("stores", values.stores, DEFAULTS.stores),
    backups: count("backups", values.backups, DEFAULTS.backups),
  };
  // The purge removes a tenth and the erasure an address with 3 enquiries among the rest.
  if (options.enquiries > 0 && options.enquiries < 100) {
    throw new Error(`--enquiries ${options.enquiries}: at least 100 (or 0)\n${USAGE}`);
  }
  // The backup's store also holds an address with 3 enquiries, erased after the backup.
  if (options.backups > 0 && options.backups < 100) {
    throw new Error(`--backups ${options.backups}: at least 100 (or 0)\n${USAGE}`);
  }
  return options;
}
