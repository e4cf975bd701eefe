/**
 * Answering a visitor from the inbox, and what helps write the answer:
 *
 *   POST /inbox/api/enquiries/:id/replies   { text, key, markAnswered? }: the reply stored with its
 *        outbox row (../store/reply-store) and sent by the outbox's sender; the same key again
 *        answers with the same reply and repeated: true, and sends nothing more
 *   GET  /inbox/api/enquiries/:id           gains replies (oldest first, each with its delivery)
 *        and replyable: { to, subject }, or { unavailable } saying why not
 *   GET/POST /inbox/api/saved-answers[/:id[/delete]]   the company's saved answers, each change in
 *        the audit
 *   GET  /inbox/api/me                      the person, with their signature
 *   POST /inbox/api/me/signature            { signature }
 *
 * The page fills a saved answer's placeholders ({name}, {signature}) as it inserts it: the server
 * stores and sends the text as given.
 */
import type { EnquiryConfig } from "../core/config";
import { replySubject, repliesUnavailable, undeliverable } from "../mail/reply-mail";
import { SAVED_ANSWERS_MAX, type Reply } from "../store/reply-store";
import { readStoredLine } from "../store/stored-record";
import type { EnquiryStore } from "../store/store";
import type { Person } from "../store/inbox-store";
import { ok, type InboxAnswer, type InboxRequest, type Route } from "./routes";

export const REPLY_MAX_CHARS = 20_000;
export const SAVED_TITLE_MAX_CHARS = 100;
export const SAVED_TEXT_MAX_CHARS = 5_000;
export const SIGNATURE_MAX_CHARS = 1_000;
export const ENQUIRY_PATH = "/inbox/api/enquiries/:id";

const refuse = (error: string, message: string, status = 400): InboxAnswer => ({
  status,
  json: { error, message },
});
const notFound = refuse("not_found", "No such enquiry.", 404);
/** A draft's key: the page's UUID (any similar token of 8 to 100 characters is taken). */
const KEY = /^[A-Za-z0-9_-]{8,100}$/;

export interface ReplyRoutesOptions {
  /** Asks the outbox's sender for a pass now (the service's receiver); without it, its timer sends. */
  sendDue?: () => unknown;
}

export function replyRoutes(
  store: EnquiryStore,
  config: Pick<EnquiryConfig, "smtpUrl" | "replies">,
  options: ReplyRoutesOptions = {},
): Route[] {
  const { inbox } = store;
  const { replies } = inbox;
  const iso = (r: InboxRequest) => new Date(r.now()).toISOString();

  return [
    {
      method: "GET",
      path: "/inbox/api/me",
      handle: async ({ person }) =>
        ok({ person: { ...publicPerson(person), signature: await replies.signature(person.id) } }),
    },
    {
      method: "POST",
      path: "/inbox/api/me/signature",
      async handle(r) {
        const { signature } = r.body;
        if (typeof signature !== "string")
          return refuse("bad_request", "signature: the signature's text (may be empty).");
        if (signature.length > SIGNATURE_MAX_CHARS)
          return refuse(
            "too_long",
            `The signature is ${signature.length} characters long; it may be ${SIGNATURE_MAX_CHARS} at most.`,
          );
        await replies.setSignature(r.person.id, signature.replace(/\r\n?/g, "\n"));
        return ok({ person: { ...publicPerson(r.person), signature: await replies.signature(r.person.id) } });
      },
    },
    {
      method: "POST",
      path: "/inbox/api/enquiries/:id/replies",
      async handle(r) {
        const { text, key, markAnswered } = r.body;
        if (typeof key !== "string" || !KEY.test(key))
          return refuse("bad_request", "key: the draft's own UUID, made by the page, the same when it is sent again.");
        if (markAnswered !== undefined && typeof markAnswered !== "boolean")
          return refuse("bad_request", "markAnswered: true or false.");
        const words = typeof text === "string" ? text.replace(/\r\n?/g, "\n") : "";
        if (!words.trim()) return refuse("empty_text", "The reply is empty: write something to send.");
        if (words.length > REPLY_MAX_CHARS)
          return refuse(
            "text_too_long",
            `The reply is ${words.length} characters long; a reply may be ${REPLY_MAX_CHARS.toLocaleString("en")} ` +
              "characters at most. Shorten it.",
          );
        const id = r.params.id!;
        const found = await inbox.enquiry(id);
        const e = found && readStoredLine(found.data);
        if (!found || !e) return notFound;
        const unset = repliesUnavailable(config);
        if (unset) return refuse("not_configured", unset, 409);
        const why = undeliverable(e.email);
        if (why) return refuse("undeliverable", why);
        const added = await replies.add({
          enquiryId: id,
          personId: r.person.id,
          key,
          text: words,
          subject: replySubject(e),
          at: iso(r),
          markAnswered: markAnswered !== false,
        });
        if (added.outcome === "not-found") return notFound;
        if (added.outcome === "added") void Promise.resolve(options.sendDue?.()).catch(() => undefined);
        const names = await peopleNames(store, iso(r));
        return ok({
          reply: replyView(added.reply, e.email, names),
          repeated: added.outcome === "repeated",
          work: added.work,
        });
      },
    },
    {
      method: "GET",
      path: "/inbox/api/saved-answers",
      handle: async () => ok({ answers: await replies.savedAnswers() }),
    },
    {
      method: "POST",
      path: "/inbox/api/saved-answers",
      handle: (r) => saveAnswer(r, undefined),
    },
    {
      method: "POST",
      path: "/inbox/api/saved-answers/:id",
      async handle(r) {
        const id = answerId(r.params.id!);
        return id === undefined ? refuse("not_found", "No such saved answer.", 404) : saveAnswer(r, id);
      },
    },
    {
      method: "POST",
      path: "/inbox/api/saved-answers/:id/delete",
      async handle(r) {
        const id = answerId(r.params.id!);
        if (id === undefined || !(await replies.deleteAnswer(id, r.person.id, iso(r))))
          return refuse("not_found", "No such saved answer.", 404);
        return ok({ deleted: true });
      },
    },
  ];

  async function saveAnswer(r: InboxRequest, id: number | undefined): Promise<InboxAnswer> {
    const title = typeof r.body.title === "string" ? r.body.title.trim() : "";
    const text = typeof r.body.text === "string" ? r.body.text.replace(/\r\n?/g, "\n") : "";
    if (!title) return refuse("bad_request", "title: give the saved answer a title.");
    if (title.length > SAVED_TITLE_MAX_CHARS || /[\r\n]/.test(title))
      return refuse("too_long", `The title must be one line of ${SAVED_TITLE_MAX_CHARS} characters at most.`);
    if (!text.trim()) return refuse("empty_text", "The saved answer is empty: write its text.");
    if (text.length > SAVED_TEXT_MAX_CHARS)
      return refuse(
        "too_long",
        `The saved answer is ${text.length} characters long; it may be ${SAVED_TEXT_MAX_CHARS.toLocaleString("en")} at most.`,
      );
    const saved = await replies.saveAnswer(id, { title, text }, r.person.id, iso(r));
    if (saved.outcome === "done") return ok({ answer: saved.answer });
    if (saved.outcome === "not-found") return refuse("not_found", "No such saved answer.", 404);
    return refuse(
      "too_many",
      `There are ${SAVED_ANSWERS_MAX} saved answers already, the most there may be: delete one first.`,
    );
  }
}

/**
 * The enquiry's route with its replies and whether one can be sent added to its answer (the route
 * itself, ./work-routes, knows nothing of replies).
 */
export function withReplies(
  routes: Route[],
  store: EnquiryStore,
  config: Pick<EnquiryConfig, "smtpUrl" | "replies">,
): Route[] {
  return routes.map((route) =>
    route.method !== "GET" || route.path !== ENQUIRY_PATH
      ? route
      : {
          ...route,
          async handle(r) {
            const answer = await route.handle(r);
            if (answer.status !== 200 || !("json" in answer)) return answer;
            const { enquiry } = answer.json as { enquiry: { fields: { email?: string; name?: string } } };
            const email = enquiry.fields.email ?? "";
            const names = await peopleNames(store, new Date(r.now()).toISOString());
            const list = await store.inbox.replies.of(r.params.id!);
            const unavailable = repliesUnavailable(config) ?? undeliverable(email);
            return {
              ...answer,
              json: {
                enquiry: {
                  ...enquiry,
                  replies: list.map((reply) => replyView(reply, email, names)),
                  replyable: unavailable
                    ? { unavailable }
                    : { to: email, subject: replySubject({ name: enquiry.fields.name ?? "" }) },
                },
              },
            };
          },
        },
  );
}

/** As ./inbox-http's publicPerson (not imported: that module imports this one). */
function publicPerson(person: Person) {
  return { id: person.id, name: person.name, email: person.email };
}

function replyView(reply: Reply, to: string, names: Map<number, string>) {
  return {
    id: reply.id,
    at: reply.at,
    by: reply.personId === undefined ? undefined : (names.get(reply.personId) ?? `person ${reply.personId}`),
    text: reply.text,
    subject: reply.subject,
    to,
    delivery: reply.delivery,
  };
}

async function peopleNames(store: EnquiryStore, now: string): Promise<Map<number, string>> {
  return new Map((await store.inbox.people(now)).map((p) => [p.id, p.name]));
}

function answerId(raw: string): number | undefined {
  return /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
}
