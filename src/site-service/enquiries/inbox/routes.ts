/**
 * What the inbox's routes and the API that serves them share (./inbox-http), apart from it so that the
 * routes' modules (./work-routes, ./passkeys) need not import the API that imports them.
 */
import type { Person } from "../store/inbox-store";

export interface InboxRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The JSON body (an object), for methods that change something. */
  body: Record<string, unknown>;
  person: Person;
  /** The session's id as the store keeps it (hashed). */
  sessionHash: string;
  now: () => number;
}

export type InboxAnswer =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; text: string; contentType: string; headers?: Record<string, string> };

export interface Route {
  method: "GET" | "POST";
  /** With :name for a part of the path (an enquiry's id). */
  path: string;
  handle(request: InboxRequest): Promise<InboxAnswer>;
}

interface SignInOutcomeOk {
  ok: true;
  json: unknown;
  /** Signed in: a session is started for this person. */
  personId?: number;
}
interface SignInOutcomeFailed {
  ok: false;
  status: number;
  reason: string;
  message: string;
}
export type SignInOutcome = SignInOutcomeOk | SignInOutcomeFailed;

export function ok(json: unknown): InboxAnswer {
  return { status: 200, json };
}
