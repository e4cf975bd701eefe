/**
 * The inbox's page (src/inbox) in jsdom, over a stand-in for its API (the calls it makes are recorded):
 * "← Back to the list" and Erase lead to the list the enquiry was opened from, and never out of the
 * inbox when it was opened by its own link; an enquiry's reloads after an action say refresh=1 (the
 * API records a view per opening only); a refresh of the list keeps what More showed; the first 401
 * shows the sign-in at once, with nothing looking done; the welcome shows as a notice on the list; a
 * median time under a minute reads so. The browser's own check: __tests__/deploy/browser/inbox.spec.ts.
 */
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { App } from "../../src/inbox/app";
import { duration } from "../../src/inbox/format";
import { loadList, PAGE } from "../../src/inbox/list-view";
import { Welcome } from "../../src/inbox/welcome";

jest.mock("@simplewebauthn/browser", () => ({
  startRegistration: jest.fn(async () => ({ id: "made" })),
  startAuthentication: jest.fn(async () => ({ id: "used" })),
}));

interface Answer {
  status?: number;
  body: unknown;
}
type Routes = Record<string, (body: unknown) => Answer | unknown>;

const ME = { person: { id: 1, name: "Ana Admin", email: "ana@cyrus.example" } };
const SIGN_IN_PLEASE = { status: 401, body: { error: "unauthorised", message: "Sign in to the inbox." } };

const listed = (n: number) => ({
  id: `enq-${n}`,
  receivedAt: "2026-11-20T09:00:00.000Z",
  name: `Person ${n}`,
  emailDomain: "sponsor.example",
  preview: "A study…",
  status: "new",
  version: 1,
  screening: "clean",
  flagged: false,
});
const enquiry = {
  id: "enq-1",
  receivedAt: "2026-11-20T09:00:00.000Z",
  fields: { name: "Ada Quinn", email: "ada@sponsor.example", message: "A phase II study in Lyon." },
  screening: null,
  clearedAt: null,
  deliveries: [],
  outbox: [],
  work: { status: "new", version: 1, owner: null },
  notes: [],
  history: [],
};

let calls: string[];

/**
 * The API as `routes` says ("GET enquiries/enq-1": an answer's body, or { status, body }); "me",
 * "people", "changes", "counts" and "answer-times" answer as for a person signed in unless given.
 */
function api(routes: Routes): void {
  calls = [];
  const all: Routes = {
    "GET me": () => ME,
    "GET people": () => ({ people: [{ id: 1, name: "Ana Admin" }] }),
    "GET changes": () => ({ mark: "1" }),
    "GET counts": () => ({ byStatus: {}, flagged: 0 }),
    "GET answer-times": () => ({ periods: [{ days: 30, answered: 1, medianMs: 20_000 }] }),
    ...routes,
  };
  global.fetch = jest.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    const path = String(url).replace(/^\/inbox\/api\//, "");
    calls.push(`${method} ${path}`);
    const route = all[`${method} ${path}`] ?? all[`${method} ${path.split("?")[0]}`];
    const given = route ? route(init?.body ? JSON.parse(String(init.body)) : undefined) : undefined;
    const answer: Answer =
      given && typeof given === "object" && "body" in given ? (given as Answer) : { status: 200, body: given };
    if (!route) answer.status = 404;
    const status = answer.status ?? 200;
    return { ok: status < 400, status, json: async () => answer.body ?? {} } as Response;
  }) as typeof fetch;
}

/** The page at `path` (its history entry a fresh tab's: no state). */
function at(path: string): void {
  window.history.replaceState(null, "", path);
}

/** The list's pages as the API gives them, over `all`: ?limit= (50 unless given) &after=pN (N before). */
function paged(all: ReturnType<typeof listed>[]): void {
  const fetched = global.fetch as jest.Mock;
  const others = fetched.getMockImplementation()!;
  fetched.mockImplementation(async (url: string, init?: RequestInit) => {
    const path = String(url).replace(/^\/inbox\/api\//, "");
    if (!path.startsWith("enquiries?")) return others(url, init);
    calls.push(`GET ${path}`);
    const params = new URLSearchParams(path.split("?")[1]);
    const from = Number(params.get("after")?.slice(1) ?? 0);
    const to = from + Number(params.get("limit") ?? 50);
    const body = { enquiries: all.slice(from, to), ...(to < all.length && { next: `p${to}` }) };
    return { ok: true, status: 200, json: async () => body } as Response;
  });
}

const where = () => window.location.pathname + window.location.search;
const backButton = () => screen.findByRole("button", { name: "← Back to the list" });

beforeEach(() => {
  // The page's answers arrive between the test's steps, as in a browser: React need not warn of act.
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
  Object.defineProperty(document, "visibilityState", { configurable: true, value: "visible" });
  document.title = "Enquiries inbox";
});

describe("← Back to the list", () => {
  test("opened by its own link (a new tab, another site): the list, not history.back() out of the inbox", async () => {
    const back = jest.spyOn(window.history, "back");
    api({ "GET enquiries/enq-1": () => ({ enquiry }), "GET enquiries": () => ({ enquiries: [listed(1)] }) });
    at("/inbox/?id=enq-1");
    render(<App />);
    fireEvent.click(await backButton());
    expect(await screen.findByRole("link", { name: "Person 1" })).toBeVisible();
    expect(where()).toBe("/inbox/");
    expect(back).not.toHaveBeenCalled();
    expect(calls).toContain("GET enquiries?limit=50");
    back.mockRestore();
  });

  test("a link with the list's filters: the list with those filters", async () => {
    api({ "GET enquiries/enq-1": () => ({ enquiry }), "GET enquiries": () => ({ enquiries: [] }) });
    at("/inbox/?id=enq-1&q=lyon&status=new");
    render(<App />);
    fireEvent.click(await backButton());
    expect(await screen.findByText("No enquiry matches.")).toBeVisible();
    expect(where()).toBe("/inbox/?q=lyon&status=new");
    expect(calls.at(-1)).toBe("GET enquiries?q=lyon&status=new&limit=50");
  });

  test("opened from the list: back in history, to the list with the filters it had", async () => {
    api({ "GET enquiries/enq-1": () => ({ enquiry }), "GET enquiries": () => ({ enquiries: [listed(1)] }) });
    at("/inbox/?q=lyon");
    const length = window.history.length;
    render(<App />);
    fireEvent.click(await screen.findByRole("link", { name: "Person 1" }));
    expect(where()).toBe("/inbox/?id=enq-1&q=lyon");
    fireEvent.click(await backButton());
    await waitFor(() => expect(where()).toBe("/inbox/?q=lyon"));
    expect(await screen.findByRole("link", { name: "Person 1" })).toBeVisible();
    // The entry it came from, not a new one.
    expect(window.history.length).toBe(length + 1);
  });

  test("erased, from its own link: the list, in the inbox", async () => {
    api({
      "GET enquiries/enq-1": () => ({ enquiry }),
      "POST enquiries/enq-1/erase": (body) =>
        (body as { confirm?: number }).confirm === 1
          ? { erased: 1 }
          : { status: 409, body: { error: "confirm", count: 1 } },
      "GET enquiries": () => ({ enquiries: [] }),
    });
    at("/inbox/?id=enq-1");
    render(<App />);
    fireEvent.click(await screen.findByRole("button", { name: "Erase…" }));
    fireEvent.click(await screen.findByRole("button", { name: "Erase 1 enquiry" }));
    expect(await screen.findByText("No enquiry matches.")).toBeVisible();
    expect(screen.getByRole("status")).toHaveTextContent("Erased 1 enquiry of this address.");
    expect(where()).toBe("/inbox/");
  });
});

test("an enquiry is opened once (a view), then reloaded after each action with refresh=1", async () => {
  api({
    "GET enquiries/enq-1": () => ({ enquiry }),
    "POST enquiries/enq-1/work": () => ({ work: { ...enquiry.work, ownerId: 1, version: 2 } }),
    "POST enquiries/enq-1/notes": () => ({ added: true }),
  });
  at("/inbox/?id=enq-1");
  render(<App />);
  fireEvent.click(await screen.findByRole("button", { name: "Take it" }));
  await screen.findByText("It is yours.");
  fireEvent.change(screen.getByLabelText("Internal note (never sent to the visitor)"), { target: { value: "Hi" } });
  fireEvent.click(screen.getByRole("button", { name: "Add note" }));
  await screen.findByText("Note added.");
  await waitFor(() => expect(calls.filter((c) => c.startsWith("GET enquiries/enq-1"))).toHaveLength(3));
  expect(calls.filter((c) => c.startsWith("GET enquiries/enq-1"))).toEqual([
    "GET enquiries/enq-1",
    "GET enquiries/enq-1?refresh=1",
    "GET enquiries/enq-1?refresh=1",
  ]);
});

test("the list refreshed (the change mark moved) keeps as many as More showed", async () => {
  const all = Array.from({ length: 70 }, (_, i) => listed(i + 1));
  let mark = 0;
  api({ "GET changes": () => ({ mark: String(mark) }) });
  paged(all);
  at("/inbox/");
  render(<App />);
  const heading = () => document.getElementById("list-title")?.textContent;
  await waitFor(() => expect(heading()).toBe("50+ enquiries"));
  fireEvent.click(screen.getByRole("button", { name: "More" }));
  await waitFor(() => expect(heading()).toBe("70 enquiries"));
  // Someone changes something: the poll's mark moves, the list is asked again, for as many.
  calls.length = 0;
  mark += 1;
  await act(async () => void document.dispatchEvent(new Event("visibilitychange")));
  await waitFor(() => expect(calls).toContain("GET enquiries?limit=70"));
  await act(async () => undefined);
  expect(heading()).toBe("70 enquiries");
  expect(document.querySelectorAll(".inbox-item")).toHaveLength(70);
  expect(screen.queryByRole("button", { name: "More" })).toBeNull();
});

test("more shown than one request may ask for: asked again by pages of the most a request may", async () => {
  const all = Array.from({ length: 460 }, (_, i) => listed(i + 1));
  api({});
  paged(all);
  const page = await loadList({ status: "new" }, 450);
  expect(page.enquiries.map((e) => e.id)).toEqual(all.slice(0, 450).map((e) => e.id));
  expect(page.next).toBe("p450");
  expect(calls).toEqual([
    `GET enquiries?status=new&limit=${PAGE.max}`,
    `GET enquiries?status=new&limit=${PAGE.max}&after=p200`,
    "GET enquiries?status=new&limit=50&after=p400",
  ]);
});

describe("a session that ends while the page is open", () => {
  test("the first 401 (an action) shows the sign-in at once; the action is not said to be done", async () => {
    api({ "GET enquiries/enq-1": () => ({ enquiry }), "POST enquiries/enq-1/work": () => SIGN_IN_PLEASE });
    at("/inbox/?id=enq-1");
    render(<App />);
    fireEvent.click(await screen.findByRole("button", { name: "Take it" }));
    expect(await screen.findByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
    expect(screen.getByText("Your session has ended: sign in again to go on.")).toBeVisible();
    expect(screen.queryByText("Signed in as Ana Admin")).toBeNull();
    expect(screen.queryByRole("button", { name: "Take it" })).toBeNull();
    expect(screen.getByRole("status")).toHaveTextContent("Not saved: Sign in to the inbox.");
    // Only the one poll of the opening: the sign-in was not waiting for the next.
    expect(calls.filter((c) => c === "GET changes")).toHaveLength(1);
  });

  test("a 401 of the list's loading does the same; a first visit without a session says nothing of one ending", async () => {
    api({ "GET enquiries": () => SIGN_IN_PLEASE });
    at("/inbox/");
    const { unmount } = render(<App />);
    expect(await screen.findByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
    expect(screen.getByText("Your session has ended: sign in again to go on.")).toBeVisible();
    unmount();

    api({ "GET me": () => SIGN_IN_PLEASE });
    render(<App />);
    expect(await screen.findByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
    expect(screen.queryByText(/Your session has ended/)).toBeNull();
  });
});

test("the welcome: the passkey made, the list shows with the welcome as its notice, the token gone from the address", async () => {
  api({
    "POST session/welcome-options": () => ({ options: { challenge: "c" }, person: { name: "Ana Admin" } }),
    "POST session/welcome": () => ({ person: ME.person }),
    "GET enquiries": () => ({ enquiries: [listed(1)] }),
  });
  at("/inbox/welcome/#the-token");
  render(<Welcome />);
  fireEvent.click(await screen.findByRole("button", { name: "Create a passkey" }));
  expect(await screen.findByRole("link", { name: "Person 1" })).toBeVisible();
  expect(screen.getByText("Signed in as Ana Admin")).toBeVisible();
  expect(screen.getByRole("status")).toHaveTextContent("Welcome, Ana Admin: your passkey is made.");
  expect(window.location.href).toBe(`${window.location.origin}/inbox/`);
  expect(document.title).toBe("Enquiries inbox");
  expect(calls.filter((c) => c.startsWith("POST session/"))).toEqual([
    "POST session/welcome-options",
    "POST session/welcome",
  ]);
});

test("a median time to answer under a minute reads so; longer ones in minutes, hours, days", () => {
  expect(duration(0)).toBe("under a minute");
  expect(duration(59_999)).toBe("under a minute");
  expect(duration(60_000)).toBe("1 min");
  expect(duration(200 * 60_000)).toBe("3 h 20 min");
  expect(duration(52 * 3600_000)).toBe("2 days 4 h");
  expect(duration(null)).toBe("none answered");
});
