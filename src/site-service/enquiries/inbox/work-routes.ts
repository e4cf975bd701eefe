/**
 * The inbox's routes behind the session (./inbox-http checks it, and Origin and X-Inbox on every
 * change): the list and its filters, counts, one enquiry, working it, notes, not-spam, re-sending a
 * delivery, erasure, CSV export and the answer times. Lists and searches, views, exports and
 * erasures are written to the audit by the enquiries' ids, counts and the kinds of filter, never by
 * the visitor's data; search words are not kept there.
 */
import { ENQUIRY_FIELD_NAMES } from "../../../enquiry-contract/enquiry-fields";
import { csvCell } from "../cli/export-format";
import { readStoredLine } from "../store/stored-record";
import type { EnquiryStore } from "../store/store";
import { WORK_STATUSES, type ListFilter, type PageKey, type WorkStatus } from "../store/inbox-store";
import { preview } from "./preview";
import { ok, type InboxAnswer, type InboxRequest, type Route } from "./routes";

const PAGE = { default: 50, max: 200 };
const EXPORT_MAX = 100_000;
const NOTE_MAX_CHARS = 5_000;
const DAY = 24 * 3600_000;

const bad = (message: string): InboxAnswer => ({ status: 400, json: { error: "bad_request", message } });
const notFound: InboxAnswer = { status: 404, json: { error: "not_found", message: "No such enquiry." } };

export function workRoutes(store: EnquiryStore): Route[] {
  const { inbox } = store;
  const iso = (r: InboxRequest) => new Date(r.now()).toISOString();
  const names = async () => new Map((await inbox.people(new Date().toISOString())).map((p) => [p.id, p.name]));

  return [
    {
      method: "GET",
      path: "/inbox/api/enquiries",
      async handle(r) {
        const filter = readFilter(r.query);
        if (typeof filter === "string") return bad(filter);
        const limit = Math.min(PAGE.max, Math.max(1, Number(r.query.get("limit")) || PAGE.default));
        const after = readPageKey(r.query.get("after"));
        if (after === null) return bad("after: the next page's key, as the last answer gave it");
        const rows = await inbox.list(filter, after, limit + 1);
        const page = rows.slice(0, limit);
        const which = `${describeFilter(filter)}${after ? "; a later page" : ""}`;
        await inbox.recordAudit(r.person.id, "list", `${page.length} shown (${which})`, iso(r));
        const owners = await names();
        const last = page.at(-1);
        return ok({
          enquiries: page.map((row) => {
            const e = readStoredLine(row.data);
            return {
              id: row.work.enquiryId,
              receivedAt: e?.receivedAt,
              name: e?.name ?? "",
              emailDomain: e?.email.split("@").pop() ?? "",
              preview: preview(e?.message ?? ""),
              status: row.work.status,
              version: row.work.version,
              ...(row.work.ownerId !== undefined && {
                owner: { id: row.work.ownerId, name: owners.get(row.work.ownerId) },
              }),
              screening: row.verdict ?? "unscreened",
              flagged: row.verdict === "suspect" && !row.cleared,
            };
          }),
          ...(rows.length > limit &&
            last && { next: pageKey({ receivedAt: readStoredLine(last.data)?.receivedAt ?? "", seq: last.seq }) }),
        });
      },
    },
    {
      method: "GET",
      path: "/inbox/api/counts",
      handle: async () => ok(await inbox.counts()),
    },
    {
      method: "GET",
      path: "/inbox/api/changes",
      handle: async () => ok({ mark: await inbox.changesMark() }),
    },
    {
      method: "GET",
      path: "/inbox/api/people",
      async handle(r) {
        const people = await inbox.people(iso(r));
        return ok({ people: people.filter((p) => !p.revokedAt).map((p) => ({ id: p.id, name: p.name })) });
      },
    },
    {
      method: "GET",
      path: "/inbox/api/answer-times",
      async handle(r) {
        const of = async (days: number) => {
          const times = await inbox.answerTimes(new Date(r.now() - days * DAY).toISOString());
          return { days, answered: times.length, medianMs: median(times) };
        };
        return ok({ periods: [await of(30), await of(90)] });
      },
    },
    {
      method: "GET",
      path: "/inbox/api/enquiries/:id",
      async handle(r) {
        const id = r.params.id!;
        const [found, work] = [await inbox.enquiry(id), await inbox.work(id)];
        const e = found && readStoredLine(found.data);
        if (!found || !work || !e) return notFound;
        // One view per opening: the page's reload after an action says refresh=1 and adds none, unless
        // this session has no view of it (a refresh never preceded by an opening is an opening).
        const subject = `enquiry ${id}`;
        if (r.query.get("refresh") !== "1" || !(await inbox.auditedInSession(r.sessionHash, "view", subject)))
          await inbox.recordAudit(r.person.id, "view", subject, iso(r));
        const owners = await names();
        const who = (personId?: number) =>
          personId === undefined ? undefined : (owners.get(personId) ?? `person ${personId}`);
        return ok({
          enquiry: {
            id,
            receivedAt: e.receivedAt,
            fields: Object.fromEntries(ENQUIRY_FIELD_NAMES.map((name) => [name, e[name]])),
            screening: e.screening ?? null,
            clearedAt: found.clearedAt ?? null,
            deliveries: found.deliveries,
            outbox: found.outbox,
            work: { ...work, owner: work.ownerId === undefined ? null : { id: work.ownerId, name: who(work.ownerId) } },
            notes: (await inbox.notes(id)).map((n) => ({ at: n.at, by: who(n.personId), text: n.text })),
            history: (await inbox.history(id)).map((h) => ({ at: h.at, by: who(h.personId), what: h.what })),
          },
        });
      },
    },
    {
      method: "POST",
      path: "/inbox/api/enquiries/:id/work",
      async handle(r) {
        const { version, status, ownerId } = r.body;
        if (!Number.isInteger(version)) return bad("version: the version the change was made on");
        if (status !== undefined && !WORK_STATUSES.includes(status as WorkStatus))
          return bad(`status: one of ${WORK_STATUSES.join(", ")}`);
        if (ownerId !== undefined && ownerId !== null) {
          const owner = Number.isInteger(ownerId) ? await inbox.person(ownerId as number) : undefined;
          if (!owner || owner.revokedAt) return bad("ownerId: a person of the inbox, or null");
        }
        const result = await inbox.changeWork(
          r.params.id!,
          version as number,
          { status: status as WorkStatus | undefined, ownerId: ownerId as number | null | undefined },
          r.person.id,
          iso(r),
        );
        if (result.outcome === "not-found") return notFound;
        if (result.outcome === "conflict") {
          return {
            status: 409,
            json: {
              error: "conflict",
              message: "Someone changed this enquiry meanwhile: here is what it is now. Nothing of yours was saved.",
              work: result.state,
            },
          };
        }
        return ok({ work: result.state });
      },
    },
    {
      method: "POST",
      path: "/inbox/api/enquiries/:id/notes",
      async handle(r) {
        const text = typeof r.body.text === "string" ? r.body.text.trim() : "";
        if (!text || text.length > NOTE_MAX_CHARS) return bad(`text: 1 to ${NOTE_MAX_CHARS} characters`);
        return (await inbox.addNote(r.params.id!, r.person.id, text, iso(r))) ? ok({ added: true }) : notFound;
      },
    },
    {
      method: "POST",
      path: "/inbox/api/enquiries/:id/not-spam",
      async handle(r) {
        const id = r.params.id!;
        const found = await inbox.enquiry(id);
        const e = found && readStoredLine(found.data);
        if (!found || !e) return notFound;
        if (e.screening?.verdict !== "suspect") return bad("it was not flagged as possible spam: nothing to clear");
        // The same record as `enquiries -- not-spam`: the screening's reviews.
        if (await store.recordReview({ id, at: iso(r), review: "not-spam" }))
          await inbox.recordHistory(id, r.person.id, "marked not spam", iso(r));
        return ok({ cleared: true });
      },
    },
    {
      method: "POST",
      path: "/inbox/api/enquiries/:id/resend",
      async handle(r) {
        const id = r.params.id!;
        const destination = r.body.destination;
        const found = await inbox.enquiry(id);
        if (!found) return notFound;
        if (typeof destination !== "string" || !found.outbox.some((o) => o.destination === destination))
          return bad(`destination: one of ${found.outbox.map((o) => o.destination).join(", ") || "(none)"}`);
        const due = await store.dueNow(destination, iso(r), id);
        if (due > 0) await inbox.recordHistory(id, r.person.id, `re-send (${destination})`, iso(r));
        return ok({ due: due > 0 });
      },
    },
    {
      method: "POST",
      path: "/inbox/api/enquiries/:id/erase",
      async handle(r) {
        const found = await inbox.enquiry(r.params.id!);
        const e = found && readStoredLine(found.data);
        if (!found || !e) return notFound;
        const count = await inbox.countFrom(e.email);
        // The confirmation names how many go: the page sends that number back.
        if (r.body.confirm !== count) {
          return {
            status: 409,
            json: { error: "confirm", message: `Erasing removes ${count} enquiries of this address.`, count },
          };
        }
        const removal = await store.erase(e.email, { at: iso(r), personId: r.person.id, fromEnquiry: e.id });
        return ok({ erased: removal.enquiries, ...(removal.incomplete && { incomplete: removal.incomplete }) });
      },
    },
    {
      method: "GET",
      path: "/inbox/api/export.csv",
      async handle(r) {
        const filter = readFilter(r.query);
        if (typeof filter === "string") return bad(filter);
        const rows = await inbox.list(filter, undefined, EXPORT_MAX);
        const owners = await names();
        const header = ["id", "receivedAt", ...ENQUIRY_FIELD_NAMES, "screening", "status", "owner", "answeredAt"];
        const lines = [header.map(csvCell).join(",")];
        for (const row of rows) {
          const e = readStoredLine(row.data);
          if (!e) continue;
          const w = row.work;
          const cells = [
            e.id,
            e.receivedAt,
            ...ENQUIRY_FIELD_NAMES.map((name) => e[name]),
            row.verdict ?? "",
            w.status,
            w.ownerId === undefined ? "" : (owners.get(w.ownerId) ?? ""),
            w.answeredAt ?? "",
          ];
          lines.push(cells.map(csvCell).join(","));
        }
        await inbox.recordAudit(r.person.id, "export", `${rows.length} enquiries (${describeFilter(filter)})`, iso(r));
        return {
          status: 200,
          text: `${lines.join("\r\n")}\r\n`,
          contentType: "text/csv; charset=utf-8",
          headers: { "content-disposition": 'attachment; filename="enquiries.csv"' },
        };
      },
    },
  ];
}

/** The list's filter from the query (status, owner, flagged, from, to, q), or what is wrong with it. */
function readFilter(query: URLSearchParams): ListFilter | string {
  const filter: ListFilter = {};
  const status = query.get("status");
  if (status) {
    if (!WORK_STATUSES.includes(status as WorkStatus)) return `status: one of ${WORK_STATUSES.join(", ")}`;
    filter.status = status as WorkStatus;
  }
  const owner = query.get("owner");
  if (owner) {
    if (owner !== "none" && !/^\d+$/.test(owner)) return "owner: a person's id, or none";
    filter.ownerId = owner === "none" ? null : Number(owner);
  }
  const flagged = query.get("flagged");
  if (flagged) {
    if (flagged !== "true" && flagged !== "false") return "flagged: true or false";
    filter.flagged = flagged === "true";
  }
  for (const key of ["from", "to"] as const) {
    const value = query.get(key);
    if (!value) continue;
    const time = Date.parse(value);
    if (Number.isNaN(time)) return `${key}: a date or time (2026-11-20, or an ISO time)`;
    filter[key] = new Date(time).toISOString();
  }
  const q = query.get("q")?.trim();
  if (q) filter.search = q.slice(0, 200);
  return filter;
}

function describeFilter(filter: ListFilter): string {
  const parts = [
    filter.status && `status ${filter.status}`,
    filter.ownerId !== undefined && `owner ${filter.ownerId ?? "none"}`,
    filter.flagged !== undefined && (filter.flagged ? "flagged" : "not flagged"),
    filter.from && `from ${filter.from}`,
    filter.to && `to ${filter.to}`,
    filter.search && "a search",
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "all";
}

function pageKey(key: PageKey): string {
  return Buffer.from(JSON.stringify([key.receivedAt, key.seq])).toString("base64url");
}

/** undefined: no key (the first page); null: not a key this API gave. */
function readPageKey(value: string | null): PageKey | undefined | null {
  if (!value) return undefined;
  try {
    const [receivedAt, seq] = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as unknown[];
    if (typeof receivedAt !== "string" || Number.isNaN(Date.parse(receivedAt)) || !Number.isInteger(seq)) return null;
    return { receivedAt, seq: seq as number };
  } catch {
    return null;
  }
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}
