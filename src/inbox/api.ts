/**
 * The inbox's calls to its API (/inbox/api/, same origin). referrerPolicy "same-origin": the pages
 * are served with Referrer-Policy no-referrer, under which Chromium sends `Origin: null` with a
 * same-origin POST, and the API refuses every change whose Origin is not the site's. X-Inbox: 1 is
 * the header no form of another site can send.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.message === "string" ? body.message : `The inbox answered ${status}.`);
  }
}

const BASE = "/inbox/api/";

let sessionEnded: () => void = () => undefined;

/**
 * `handler` is told of every 401 from a route behind the session (revoked, expired, signed out in
 * another tab), before the caller hears of it: the page shows the sign-in at the first such answer,
 * not at the next poll. (The passkey ceremonies' own 401s, under session/, say no such thing.)
 */
export function whenSessionEnds(handler: () => void): () => void {
  sessionEnded = handler;
  return () => {
    if (sessionEnded === handler) sessionEnded = () => undefined;
  };
}

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(BASE + path, {
    ...init,
    credentials: "same-origin",
    referrerPolicy: "same-origin",
    cache: "no-store",
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.status === 401 && !path.startsWith("session/")) sessionEnded();
  if (!response.ok) throw new ApiError(response.status, body);
  return body as T;
}

export const get = <T>(path: string) => call<T>(path);

export const post = <T>(path: string, body: unknown = {}) =>
  call<T>(path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-inbox": "1" },
    body: JSON.stringify(body),
  });

/** The list's filters as the API reads them (also the page's URL and the export's). */
export interface Filters {
  q?: string;
  status?: string;
  owner?: string;
  flagged?: string;
  from?: string;
  to?: string;
}
export const FILTER_KEYS = ["q", "status", "owner", "flagged", "from", "to"] as const;

export function filterQuery(filters: Filters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) if (filters[key]) params.set(key, filters[key]!);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : "";
}

export const exportUrl = (filters: Filters) => `${BASE}export.csv${filterQuery(filters)}`;

export const STATUSES = ["new", "in progress", "answered", "closed", "spam"] as const;

export interface Person {
  id: number;
  name: string;
  email?: string;
}
export interface ListedEnquiry {
  id: string;
  receivedAt: string;
  name: string;
  emailDomain: string;
  preview: string;
  status: string;
  version: number;
  owner?: { id: number; name?: string };
  screening: string;
  flagged: boolean;
}
export interface Work {
  status: string;
  ownerId?: number;
  version: number;
  answeredAt?: string;
  owner?: { id: number; name?: string } | null;
}
export interface Enquiry {
  id: string;
  receivedAt: string;
  fields: Record<string, string | undefined>;
  screening: { verdict?: string; signals?: unknown } | null;
  clearedAt: string | null;
  deliveries: Array<{ at: string; outcome: string; detail?: string }>;
  outbox: Array<{ destination: string; state: string; attempts: number; nextAt: string; lastError?: string }>;
  work: Work;
  notes: Array<{ at: string; by?: string; text: string }>;
  history: Array<{ at: string; by?: string; what: string }>;
  /** Absent from a service without replies. */
  replies?: Reply[];
  replyable?: Replyable;
}
export interface Counts {
  byStatus: Record<string, number>;
  flagged: number;
}

/** An e-mail sent to the visitor from the inbox, and how its sending goes (the service's outbox). */
export interface Reply {
  id: string;
  at: string;
  by?: string;
  text: string;
  subject: string;
  to: string;
  delivery: { state: "due" | "done" | "failed"; attempts: number; lastError?: string; nextAt?: string };
}
/** Whether the visitor can be answered from here: where to and under what subject, or why not. */
export type Replyable = { to: string; subject: string } | { unavailable: string };
export interface SavedAnswer {
  id: string;
  title: string;
  text: string;
  updatedAt: string;
  updatedBy?: string;
}
/** The signed-in person as GET me answers: the signature their replies' {signature} is filled with. */
export interface Me extends Person {
  signature?: string;
}
