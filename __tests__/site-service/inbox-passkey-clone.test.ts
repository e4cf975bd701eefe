/**
 * A passkey whose signature counter goes backwards (a copy of it signing in after the original moved
 * on: WebAuthn's sign of a cloned authenticator), on each engine: the sign-in is refused, the
 * service logs it as a possible clone with the person's id and address only, and `enquiries people`
 * shows it under the person. A forged assertion with a low counter (no true signature) is refused
 * without being taken for a clone; the original passkey, whose counter moves on, still signs in.
 */
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { ENGINES, engineUnderTest } from "./support/engines";
import { serviceUnderTest } from "./support/service-under-test";
import { client, fill, invited, NOW, ORIGIN, type Call } from "./support/inbox-client";
import type { SoftwareAuthenticator } from "./support/software-authenticator";

const AT = new Date(NOW).toISOString();

async function signIn(call: Call, authenticator: SoftwareAuthenticator, forge = false) {
  const options = await call("POST", "/inbox/api/session/sign-in-options", { body: {} });
  const request = (options.json as { options: { challenge: string; rpId: string } }).options;
  const response = authenticator.assert(request, ORIGIN) as { response: { signature: string } };
  if (forge) response.response.signature = Buffer.alloc(70, 1).toString("base64url");
  return call("POST", "/inbox/api/session/sign-in", { body: { response } });
}

describe.each(ENGINES)("on %s", (name) => {
  const engine = engineUnderTest(name);
  const start = serviceUnderTest(engine);

  test("a counter going backwards: refused, logged as a possible clone, shown by `enquiries people`", async () => {
    const lines: string[] = [];
    const { service, env, port } = await start({ log: (line) => void lines.push(line) });
    const call = client(port);
    await fill(service.receiver.store);
    const ana = await invited(call, env, "ana@cyrus.example", "Ana Lima");
    const out: string[] = [];
    const people = async () => {
      out.length = 0;
      expect(await runEnquiriesCli(["people"], env, { out: (l) => out.push(l), err: () => undefined }, () => NOW)).toBe(
        0,
      );
      return out[0];
    };
    const cloneLines = () => lines.filter((l) => l.includes("possible cloned passkey"));

    // Ana signs in (counter 1); a copy is made of her passkey; she signs in again (counter 2). Her
    // sessions: the passkey's creation's and these two.
    expect((await signIn(call, ana.authenticator)).status).toBe(200);
    const copy = ana.authenticator.clone();
    expect((await signIn(call, ana.authenticator)).status).toBe(200);

    // A forged low counter, without the key: refused, and no clone is suspected.
    expect((await signIn(call, copy.clone(), true)).status).toBe(401);
    expect(cloneLines()).toEqual([]);
    expect(await people()).toBe("ana@cyrus.example  Ana Lima  has access; 1 passkey, 3 sessions");

    // The copy signs with the key, its counter at 2 again: refused.
    const cloned = await signIn(call, copy);
    expect([cloned.status, cloned.json.error]).toEqual([401, "passkey_not_recognised"]);
    expect(cloned.headers.get("set-cookie")).toBeNull();
    expect(cloneLines().map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      {
        time: expect.any(String),
        level: "warn",
        msg: "inbox passkey refused: its signature counter went backwards, a possible cloned passkey",
        personId: ana.id,
        person: "ana@cyrus.example",
        counter: 2,
        storedCounter: 2,
      },
    ]);
    expect(await people()).toBe(
      `ana@cyrus.example  Ana Lima  has access; 1 passkey, 3 sessions; possible cloned passkey at ${AT}: revoke, then invite them again`,
    );

    // The original's counter moves on: it still signs in (the operator decides); the copy never again.
    expect((await signIn(call, ana.authenticator)).status).toBe(200);
    expect((await signIn(call, copy)).status).toBe(401);
    expect(cloneLines()).toHaveLength(2);
    // Revoked, the passkey goes, and the warning with it.
    const quiet = { out: () => undefined, err: () => undefined };
    expect(await runEnquiriesCli(["revoke", "ana@cyrus.example"], env, quiet, () => NOW)).toBe(0);
    expect(await people()).toBe(`ana@cyrus.example  Ana Lima  revoked ${AT}`);
  });
});
