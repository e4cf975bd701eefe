/**
 * An enquiry given to someone in the inbox e-mails them (a real SMTP server on loopback): the
 * enquiry's link and who gave it, and nothing the visitor sent; taking one oneself mails no one; a
 * mail server that is down neither fails nor undoes the change, and is logged without the address.
 */
import { createEnquiryService, jsonLog, type EnquiryService } from "../../src/site-service/service/server";
import { startSmtp, type Received } from "../support/smtp";
import { engineUnderTest } from "./support/engines";
import { projectRoot, stoppedAfterEach } from "./support/harness";
import { client, fill, invited, NOW, ORIGIN, until } from "./support/inbox-client";

const stopAfter = stoppedAfterEach();
const SUBJECT = /^Subject: Name of Ana gave you an enquiry in the inbox$/m;

describe("the owner's e-mail", () => {
  const engine = engineUnderTest("sqlite");
  let service: EnquiryService | undefined;
  afterEach(async () => {
    await service?.shutdown("test");
    service = undefined;
    await engine.cleanUp();
  });

  test("given by someone else: the link and who gave it, no visitor data; not for oneself; a failure is logged only", async () => {
    const smtp = stopAfter(await startSmtp());
    const env = {
      ...(await engine.env()),
      SITE_URL: `${ORIGIN}/`,
      ENQUIRY_PORT: "0",
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      ENQUIRY_TO: "desk@cyrus.example",
    };
    const lines: string[] = [];
    service = createEnquiryService({
      env,
      log: jsonLog((line) => void lines.push(line)),
      receiverOptions: { now: () => NOW, mailer: null },
      projectRoot,
    });
    const call = client((await service.listen()).port);
    await fill(service.receiver.store);
    const ana = await invited(call, env, "ana@cyrus.example", "Name of Ana");
    const ben = await invited(call, env, "ben@cyrus.example", "Name of Ben");
    const ownerMails = () => smtp.messages.filter((m) => SUBJECT.test(m.raw));
    const work = (id: string, body: unknown, who = ana) =>
      call("POST", `/inbox/api/enquiries/${id}/work`, { cookie: who.cookie, body });

    // Ana takes one herself (no mail), then gives another to Ben (his mail).
    expect((await work("enq-004", { version: 1, ownerId: ana.id })).status).toBe(200);
    expect((await work("enq-003", { version: 1, status: "in progress", ownerId: ben.id })).status).toBe(200);
    const [mail] = ((await until(() => ownerMails().length > 0 && ownerMails())) || []) as Received[];
    expect(mail?.rcptTo).toEqual(["ben@cyrus.example"]);
    // Quoted-printable, decoded.
    const body = mail!.raw
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    expect(body).toContain("https://cyrus.example/inbox/?id=enq-003");
    expect(body).toContain("Name of Ana gave you an enquiry");
    // Nothing of what the visitor sent: not the name, the address, its domain or the message.
    expect(body).not.toMatch(/Person 3|person3|sponsor0|phase|study|enquiry number/i);

    // A status change of Ben's enquiry, and Ben taking one himself: no more mail.
    expect((await work("enq-003", { version: 2, status: "answered" })).status).toBe(200);
    expect((await work("enq-005", { version: 1, ownerId: ben.id }, ben)).status).toBe(200);
    // Given to Ana by Ben: hers comes, and it is the second owner's mail in all.
    expect((await work("enq-006", { version: 1, ownerId: ana.id }, ben)).status).toBe(200);
    const given = () => smtp.messages.filter((m) => /gave you an enquiry/.test(m.raw));
    await until(() => given().length > 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ownerMails().map((m) => m.rcptTo)).toEqual([["ben@cyrus.example"]]);
    expect(given().map((m) => m.rcptTo)).toEqual([["ben@cyrus.example"], ["ana@cyrus.example"]]);

    // The mail server down: the change is made and stays; the failure is in the log, no address.
    await smtp.stop();
    const refused = await work("enq-007", { version: 1, ownerId: ben.id });
    expect(refused.json).toEqual({ work: { enquiryId: "enq-007", status: "new", ownerId: ben.id, version: 2 } });
    const failed = await until(() => lines.find((l) => l.includes("inbox owner e-mail failed")));
    expect(failed).toBeTruthy();
    expect(failed).toContain("enq-007");
    expect(failed).not.toMatch(/ben@|Name of/);
    expect(await service.receiver.store.inbox.work("enq-007")).toMatchObject({ ownerId: ben.id, version: 2 });
  });
});
