/** `enquiries erase --email <address>` and `enquiries export [--format csv|jsonl]`. */
import os from "node:os";
import type { Env } from "../../service/env";
import type { EnquiryStore } from "../store/store";
import type { CliOutput } from "./cli-output";
import { exportLines } from "./export-format";

/**
 * Erasure on a person's request: says how many, never the address (the output may be logged). The
 * audit records it (`enquiries audit`), by the operator's account: who ran the CLI.
 */
export async function erase(
  store: EnquiryStore,
  email: string | undefined,
  io: CliOutput,
  operator: string,
  now: () => number,
): Promise<number> {
  if (!email?.includes("@")) {
    io.err("erase needs --email <address>: npm run enquiries -- erase --email someone@example.com");
    return 2;
  }
  const { enquiries, setAsideLines, incomplete } = await store.erase(email, {
    at: new Date(now()).toISOString(),
    operatorAccount: operator,
  });
  const lines = setAsideLines > 0 ? ` and ${setAsideLines} set-aside line${setAsideLines === 1 ? "" : "s"},` : "";
  io.out(
    `erased ${enquiries} enquir${enquiries === 1 ? "y" : "ies"} of that address, with their delivery records,${lines} from ${store.where}`,
  );
  if (!incomplete) return 0;
  io.err(
    `warning: ${incomplete}; run the same erase again once that reader is done (it empties it), or stop the service`,
  );
  return 1;
}

/**
 * Who runs the CLI, as the audit names them: this process's account, and the one that became it
 * with sudo when that is another ("alice as cyrus"); "unknown" when neither can be read or either
 * is not a plain account name.
 */
export function operatorAccount(env: Env): string {
  let own: string | undefined;
  try {
    own = os.userInfo().username;
  } catch {
    own = env.USER ?? env.LOGNAME;
  }
  const plain = (name: string | undefined) => (name && /^[\w.@-]{1,64}$/.test(name) ? name : undefined);
  const [self, sudo] = [plain(own), plain(env.SUDO_USER)];
  if (!self) return sudo ?? "unknown";
  return sudo && sudo !== self ? `${sudo} as ${self}` : self;
}

export async function exportAll(store: EnquiryStore, format: string, io: CliOutput): Promise<number> {
  if (format !== "csv" && format !== "jsonl") {
    io.err(`export --format is csv or jsonl (got "${format}")`);
    return 2;
  }
  exportLines((await store.list()).enquiries, format).forEach((line) => io.out(line));
  return 0;
}
