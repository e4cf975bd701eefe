/**
 * The audit, on each engine, as `enquiries audit` shows it: every list or search request of the
 * inbox (who, when, the kinds of filter, how many shown: never the words searched for), and every
 * erasure, from the inbox (the person, and the enquiry it was asked from) and from the CLI (the
 * operator's account), with how many; the lines stay once the enquiries are gone, and name no visitor.
 */
import os from "node:os";
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { operatorAccount } from "../../src/site-service/enquiries/cli/erase-export";
import { ENGINES, engineUnderTest } from "./support/engines";
import { serviceUnderTest } from "./support/service-under-test";
import { client, fill, invited, NOW } from "./support/inbox-client";

const AT = new Date(NOW).toISOString();

describe.each(ENGINES)("on %s", (name) => {
  const engine = engineUnderTest(name);
  const start = serviceUnderTest(engine);

  test("lists, searches and erasures (inbox and CLI) are in `enquiries audit`, with filters and counts, without a visitor's data or the words searched", async () => {
    const { service, env, port } = await start();
    const call = client(port);
    const { store } = service.receiver;
    await fill(store);
    const ana = await invited(call, env, "ana@cyrus.example", "Ana Lima");
    const get = (path: string) => call("GET", path, { cookie: ana.cookie });
    const post = (path: string, body: unknown) => call("POST", path, { cookie: ana.cookie, body });

    // A search, with a filter; a page and the next; an enquiry opened, then erased from the inbox.
    const found = await get("/inbox/api/enquiries?q=Study%20ENQUIRY%20number%2011&status=new");
    expect((found.json.enquiries as Array<{ id: string }>).map((e) => e.id)).toEqual(["enq-011"]);
    const first = await get("/inbox/api/enquiries?limit=5");
    expect((await get(`/inbox/api/enquiries?limit=5&after=${String(first.json.next)}`)).status).toBe(200);
    expect((await get("/inbox/api/enquiries/enq-003")).status).toBe(200);
    expect((await post("/inbox/api/enquiries/enq-003/erase", { confirm: 1 })).json).toEqual({ erased: 1 });
    // The operator erases another address at the CLI, and one that has no enquiry.
    const out: string[] = [];
    const cli = (...args: string[]) =>
      runEnquiriesCli(args, env, { out: (l) => out.push(l), err: (l) => out.push(l) }, () => NOW);
    expect(await cli("erase", "--email", "Person5@sponsor2.example")).toBe(0);
    expect(await cli("erase", "--email", "nobody@sponsor2.example")).toBe(0);
    expect((await store.list()).enquiries.map((e) => e.id)).not.toContain("enq-005");

    out.length = 0;
    expect(await cli("audit")).toBe(0);
    const operator = `operator ${os.userInfo().username} (CLI)`;
    expect(out).toEqual([
      `${AT}  ana@cyrus.example  list  1 shown (status new, a search)`,
      `${AT}  ana@cyrus.example  list  5 shown (all)`,
      `${AT}  ana@cyrus.example  list  5 shown (all; a later page)`,
      `${AT}  ana@cyrus.example  view  enquiry enq-003`,
      `${AT}  ana@cyrus.example  erase  1 enquiry: the address of enquiry enq-003`,
      `${AT}  ${operator}  erase  1 enquiry: an address given to the CLI`,
      `${AT}  ${operator}  erase  0 enquiries: an address given to the CLI`,
      expect.stringMatching(/^7 entries \(lists and searches, views, exports, erasures\) recorded in /),
    ]);
    // Nothing a visitor sent, no word searched for.
    expect(out.join("\n")).not.toMatch(/person|sponsor|phase|study|number|nobody/i);
  });
});

describe("the operator's account, as the audit names it", () => {
  test("this process's account; who became it with sudo first; nothing but a plain name", () => {
    const self = os.userInfo().username;
    expect(operatorAccount({})).toBe(self);
    expect(operatorAccount({ SUDO_USER: self })).toBe(self);
    expect(operatorAccount({ SUDO_USER: "alice" })).toBe(self === "alice" ? "alice" : `alice as ${self}`);
    expect(operatorAccount({ SUDO_USER: "al ice\n=1" })).toBe(self);
  });
});
