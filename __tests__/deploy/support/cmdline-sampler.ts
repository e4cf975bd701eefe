/**
 * Reads the command line of every process on the machine (/proc/<pid>/cmdline, which any user may
 * read) again and again, in a process of its own so that it samples while the test's process waits
 * for git, until stopped: whether any held one of the secrets, and which git processes it saw (a
 * sampler that never saw git proves nothing). The secrets reach it in its environment, never on its
 * own command line. A pass every 2 ms or so: git processes that talk to the host live far longer.
 */
import { spawn } from "node:child_process";

export interface Sampled {
  passes: number;
  /** Command lines seen that ran git (git, git-remote-http, …), each once, secrets replaced. */
  git: string[];
  /** Command lines that held a secret, the secret replaced by <secret>. */
  leaks: string[];
}

const SCRIPT = `
const fs = require("node:fs");
const secrets = JSON.parse(process.env.SAMPLER_SECRETS);
const hide = (text) => secrets.reduce((t, s) => t.split(s).join("<secret>"), text);
const out = { passes: 0, git: new Set(), leaks: new Set() };
let stopping = false;
process.stdin.on("end", () => (stopping = true));
process.stdin.resume();
function pass() {
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(pid) || Number(pid) === process.pid) continue;
    let line;
    try { line = fs.readFileSync("/proc/" + pid + "/cmdline").toString("latin1").split("\\0").join(" ").trim(); }
    catch { continue; }
    if (secrets.some((s) => line.includes(s))) out.leaks.add(hide(line));
    if (/(^|\\/)git(-[a-z-]+)?( |$)/.test(line)) out.git.add(hide(line));
  }
  out.passes += 1;
  if (stopping) {
    process.stdout.write(JSON.stringify({ passes: out.passes, git: [...out.git], leaks: [...out.leaks] }));
    return;
  }
  setTimeout(pass, 2);
}
pass();
`;

export function sampleCommandLines(secrets: string[]): { stop(): Promise<Sampled> } {
  const child = spawn(process.execPath, ["-e", SCRIPT], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", SAMPLER_SECRETS: JSON.stringify(secrets) },
    stdio: ["pipe", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return {
    async stop() {
      child.stdin.end();
      await exited;
      return JSON.parse(output) as Sampled;
    },
  };
}
