/**
 * Let's Encrypt's test CA on loopback: Debian's `pebble`, with `pebble-challtestsrv` as its DNS server
 * (every name is 127.0.0.1, no IPv6 address), so that its HTTP-01 validation of www.example.com comes
 * to `httpPort` on this machine, where the test's nginx listens (before it runs: lego's own HTTP
 * server). Pebble's own HTTPS has a certificate from a throw-away CA made here with openssl: `caBundle`
 * is what the ACME client must trust.
 * Deterministic: no random sleep before a validation, no nonce refused, no authorisation reused (each
 * order is validated through nginx again). Its certificates last 90 days, as Let's Encrypt's.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import path from "node:path";
import { freePort } from "../../support/serve";
import { run, stopProc, type Proc } from "./stack";

export interface Pebble {
  /** The ACME directory URL. */
  directory: string;
  /** The CA certificate of Pebble's own HTTPS (readable by anyone). */
  caBundle: string;
  /** The root of the chain Pebble issues (PEM), from its management interface. */
  issuingRoot(): Promise<string>;
  output(): string;
  stop(): Promise<void>;
}

export const PEBBLE_VALIDITY_SECONDS = 90 * 24 * 3600;

function openssl(args: string[]): void {
  const result = spawnSync("openssl", args, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`openssl ${args.join(" ")}: ${result.stderr}`);
}

function get(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { ca, agent: false, timeout: 5_000 }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("timeout", () => req.destroy(new Error(`no answer from ${url}`)));
    req.on("error", reject);
  });
}

/** Pebble and its DNS server, started in `dir` (a folder anyone may enter). */
export async function startPebble(dir: string, httpPort: number): Promise<Pebble> {
  for (const program of ["pebble", "pebble-challtestsrv"])
    if (spawnSync(program, ["-h"]).error) throw new Error(`${program} is not installed: apt-get install -y pebble`);
  const file = (name: string) => path.join(dir, name);
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  const [ca, caKey, key, csr, cert] = ["ca.pem", "ca.key", "pebble.key", "pebble.csr", "pebble.pem"].map(file);
  openssl(["req", "-x509", ...ec, "-days", "1", "-subj", "/CN=Pebble test CA", "-keyout", caKey!, "-out", ca!]);
  openssl(["req", "-new", ...ec, "-subj", "/CN=localhost", "-keyout", key!, "-out", csr!]);
  fs.writeFileSync(file("pebble.ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
  const signed = ["-CA", ca!, "-CAkey", caKey!, "-set_serial", "1", "-days", "1", "-extfile", file("pebble.ext")];
  openssl(["x509", "-req", "-in", csr!, ...signed, "-out", cert!]);
  fs.chmodSync(ca!, 0o644);

  const [listen, management, dns, dnsManagement] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  fs.writeFileSync(
    file("pebble.json"),
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${listen}`,
        managementListenAddress: `127.0.0.1:${management}`,
        certificate: cert,
        privateKey: key,
        httpPort,
        tlsPort: await freePort(),
        ocspResponderURL: "",
        externalAccountBindingRequired: false,
        certificateValidityPeriod: PEBBLE_VALIDITY_SECONDS,
      },
    }),
  );
  const procs: Proc[] = [];
  procs.push(
    run("pebble-challtestsrv", [
      ...["-dns01", `127.0.0.1:${dns}`, "-http01", "", "-https01", "", "-tlsalpn01", ""],
      ...["-management", `127.0.0.1:${dnsManagement}`, "-defaultIPv4", "127.0.0.1", "-defaultIPv6", ""],
    ]),
  );
  procs.push(
    run("pebble", ["-config", file("pebble.json"), "-dnsserver", `127.0.0.1:${dns}`], {
      env: { ...process.env, PEBBLE_VA_NOSLEEP: "1", PEBBLE_WFE_NONCEREJECT: "0", PEBBLE_AUTHZREUSE: "0" },
    }),
  );
  const trusted = fs.readFileSync(ca!, "utf8");
  const directory = `https://127.0.0.1:${listen}/dir`;
  const output = () => procs.map((p) => p.output()).join("");
  const stop = async () => {
    for (const proc of procs) await stopProc(proc, "SIGTERM", 5_000);
  };
  for (let i = 0; ; i += 1) {
    const answer = await get(directory, trusted).catch(() => undefined);
    if (answer?.status === 200 && procs[0]!.output().includes("Starting challenge servers")) break;
    if (i >= 100 || procs.some((p) => p.child.exitCode !== null)) {
      await stop();
      throw new Error(`pebble did not start:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    directory,
    caBundle: ca!,
    async issuingRoot() {
      const answer = await get(`https://127.0.0.1:${management}/roots/0`, trusted);
      if (answer.status !== 200) throw new Error(`pebble's root: HTTP ${answer.status}`);
      return answer.body;
    },
    output,
    stop,
  };
}
