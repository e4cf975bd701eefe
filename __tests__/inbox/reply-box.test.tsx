/**
 * The reply box of an enquiry's page (src/inbox/reply-box.tsx) in jsdom, over a stand-in for its API:
 * a saved answer inserted with the visitor's name and the person's signature; Send posts the text, the
 * draft's key and Mark as answered, once for a double click, and clears the draft; a refused send shows
 * the service's sentence in an alert and keeps the text, and the retry carries the same key; the
 * replies' delivery as the person reads it; why a visitor cannot be answered. The browser's own check,
 * with a real service and SMTP server: __tests__/deploy/browser/inbox-reply.spec.ts.
 */
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { Enquiry, Reply } from "../../src/inbox/api";
import { EnquiryActions } from "../../src/inbox/enquiry-actions";
import { deliveryName, when } from "../../src/inbox/format";
import { deliveryText, REPEATED_WITH_CHANGES, ReplyBox } from "../../src/inbox/reply-box";

interface Answer {
  status: number;
  body: unknown;
}

let posts: Array<{ path: string; body: Record<string, unknown> }>;
let replyAnswers: Answer[];

const ANSWERS = [
  { id: 7, title: "Quote to follow", text: "Dear {name},\n\nA quote follows.\n\n{signature}", updatedAt: "2026-11-20" },
];

beforeEach(() => {
  posts = [];
  replyAnswers = [];
  let uuid = 0;
  Object.defineProperty(globalThis.crypto, "randomUUID", {
    configurable: true,
    value: () => `00000000-0000-4000-8000-00000000000${(uuid += 1)}`,
  });
  global.fetch = jest.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const path = String(url).replace(/^\/inbox\/api\//, "");
    let answer: Answer = { status: 404, body: {} };
    if (init?.method === "POST") {
      posts.push({ path, body: JSON.parse(String(init.body)) as Record<string, unknown> });
      answer = replyAnswers.shift() ?? { status: 200, body: { reply: {}, work: {} } };
    } else if (path === "saved-answers") answer = { status: 200, body: { answers: ANSWERS } };
    else if (path === "me")
      answer = { status: 200, body: { person: { id: 1, name: "Ana", signature: "Ana Admin\nCyrus" } } };
    return { ok: answer.status < 400, status: answer.status, json: async () => answer.body } as Response;
  }) as typeof fetch;
});

const enquiry = (extra: Partial<Enquiry> = {}): Enquiry => ({
  id: "enq-1",
  receivedAt: "2026-11-20T09:00:00.000Z",
  fields: { name: "Ada Quinn", email: "ada@sponsor.example", message: "A phase II study." },
  screening: null,
  clearedAt: null,
  deliveries: [],
  outbox: [],
  work: { status: "new", version: 1 },
  notes: [],
  history: [],
  replies: [],
  replyable: { to: "ada@sponsor.example", subject: "Re: Website enquiry from Ada Quinn" },
  ...extra,
});

const box = () => screen.getByLabelText("Your reply") as HTMLTextAreaElement;
const send = () => screen.getByRole("button", { name: "Send" });

test("a saved answer inserted with the visitor's name and the signature, edited, sent once for a double click", async () => {
  const reload = jest.fn(async () => undefined);
  render(<ReplyBox enquiry={enquiry()} reload={reload} />);
  expect(screen.getByRole("heading", { name: "Reply to Ada Quinn" })).toBeTruthy();
  expect(screen.getByTestId("reply-to").textContent).toBe("ada@sponsor.example");
  expect(screen.getByTestId("reply-subject").textContent).toBe("Re: Website enquiry from Ada Quinn");
  expect((screen.getByLabelText("Mark as answered") as HTMLInputElement).checked).toBe(true);
  fireEvent.change(await screen.findByLabelText("Insert a saved answer"), { target: { value: "7" } });
  fireEvent.click(screen.getByRole("button", { name: "Insert" }));
  expect(box().value).toBe("Dear Ada Quinn,\n\nA quote follows.\n\nAna Admin\nCyrus");
  expect(document.activeElement).toBe(box());
  fireEvent.change(box(), { target: { value: `${box().value}\nP.S. Soon.` } });

  await act(async () => {
    fireEvent.click(send());
    fireEvent.click(send());
  });
  expect(posts).toEqual([
    {
      path: "enquiries/enq-1/replies",
      body: {
        text: "Dear Ada Quinn,\n\nA quote follows.\n\nAna Admin\nCyrus\nP.S. Soon.",
        key: "00000000-0000-4000-8000-000000000001",
        markAnswered: true,
      },
    },
  ]);
  await waitFor(() => expect(box().value).toBe(""));
  expect(reload).toHaveBeenCalled();
  expect(screen.getByRole("alert").textContent).toBe("");

  // The next draft is another e-mail: another key. Unchecked, the status is left as it is.
  fireEvent.change(box(), { target: { value: "One more thing." } });
  fireEvent.click(screen.getByLabelText("Mark as answered"));
  await act(async () => void fireEvent.click(send()));
  expect(posts[1]!.body).toEqual({
    text: "One more thing.",
    key: "00000000-0000-4000-8000-000000000002",
    markAnswered: false,
  });
});

test("a refused send: the service's sentence in an alert beside Send, the text kept, the retry with the same key", async () => {
  replyAnswers = [{ status: 409, body: { error: "not_configured", message: "Replies are not set up." } }];
  render(<ReplyBox enquiry={enquiry()} reload={async () => undefined} />);
  fireEvent.change(box(), { target: { value: "Dear Ada,\nyes." } });
  await act(async () => void fireEvent.click(send()));
  expect(screen.getByRole("alert").textContent).toBe("Not sent: Replies are not set up.");
  expect(box().value).toBe("Dear Ada,\nyes.");
  expect(box().getAttribute("aria-describedby")).toBe("reply-error");
  await act(async () => void fireEvent.click(send()));
  expect(posts.map((p) => p.body.key)).toEqual([
    "00000000-0000-4000-8000-000000000001",
    "00000000-0000-4000-8000-000000000001",
  ]);
  await waitFor(() => expect(box().value).toBe(""));
  expect(screen.getByRole("alert").textContent).toBe("");
});

test("a send whose answer was lost, then the text changed: the first words had gone; the changes kept, sent under a new key", async () => {
  // The first Send reached the service but its answer did not: the page says so as for any failure.
  replyAnswers = [
    { status: 503, body: { error: "unavailable", message: "The inbox's service did not answer." } },
    { status: 200, body: { reply: { text: "Dear Ada,\nyes." }, work: {}, repeated: true } },
  ];
  render(<ReplyBox enquiry={enquiry()} reload={async () => undefined} />);
  fireEvent.change(box(), { target: { value: "Dear Ada,\nyes." } });
  await act(async () => void fireEvent.click(send()));
  fireEvent.change(box(), { target: { value: "Dear Ada,\nyes, from March." } });
  await act(async () => void fireEvent.click(send()));
  expect(screen.getByRole("alert").textContent).toBe(REPEATED_WITH_CHANGES);
  expect(box().value).toBe("Dear Ada,\nyes, from March.");
  await act(async () => void fireEvent.click(send()));
  await waitFor(() => expect(box().value).toBe(""));
  expect(posts.map((p) => p.body.key)).toEqual([
    "00000000-0000-4000-8000-000000000001",
    "00000000-0000-4000-8000-000000000001",
    "00000000-0000-4000-8000-000000000002",
  ]);
  expect(posts[2]!.body.text).toBe("Dear Ada,\nyes, from March.");
});

test("the replies with their delivery; a visitor who cannot be answered says why; a service without replies shows nothing", () => {
  const reply = (delivery: Reply["delivery"], id: string): Reply => ({
    id,
    at: "2026-11-20T10:00:00.000Z",
    by: "Ana Admin",
    text: `Reply ${id}`,
    subject: "Re: Website enquiry from Ada Quinn",
    to: "ada@sponsor.example",
    delivery,
  });
  const { unmount } = render(
    <ReplyBox
      enquiry={enquiry({
        replyable: { unavailable: "The visitor gave no e-mail address: there is no one to send a reply to." },
        replies: [reply({ state: "done", attempts: 1 }, "a"), reply({ state: "due", attempts: 0 }, "b")],
      })}
      reload={async () => undefined}
    />,
  );
  expect(screen.getByTestId("reply-unavailable").textContent).toBe(
    "The visitor gave no e-mail address: there is no one to send a reply to.",
  );
  expect(screen.queryByLabelText("Your reply")).toBeNull();
  expect([...screen.getByTestId("replies").querySelectorAll(".inbox-reply-state")].map((e) => e.textContent)).toEqual([
    "Sent",
    "Sending…",
  ]);
  unmount();
  expect(
    deliveryText({ state: "due", attempts: 2, lastError: "connection refused", nextAt: "2026-11-20T10:05:00Z" }),
  ).toMatch(/^Not sent yet: connection refused, trying again at .+2026.+$/);
  expect(deliveryText({ state: "failed", attempts: 9, lastError: "550 no such user" })).toBe(
    "Not sent: 550 no such user. It is not tried again by itself: Re-send it under Work on it.",
  );
  const { container } = render(<ReplyBox enquiry={enquiry({ replyable: undefined })} reload={async () => undefined} />);
  expect(container.innerHTML).toBe("");
});

test("a reply failed for good: named by its time among the deliveries' Re-send, which asks for that reply's row", async () => {
  const failed: Reply = {
    id: "r-1",
    at: "2026-11-20T10:00:00.000Z",
    text: "Dear Ada",
    subject: "Re: Website enquiry from Ada Quinn",
    to: "ada@sponsor.example",
    delivery: { state: "failed", attempts: 5, lastError: "550 no such user" },
  };
  const outbox = [
    { destination: "email", state: "done", attempts: 1, nextAt: "2026-11-20T09:00:00.000Z" },
    { destination: "reply:r-1", state: "failed", attempts: 5, nextAt: "2026-11-23T10:00:00.000Z" },
  ];
  const me = { id: 1, name: "Ana", email: "ana@cyrus.example" };
  render(
    <EnquiryActions
      enquiry={enquiry({ replies: [failed], outbox })}
      me={me}
      people={[me]}
      setWork={() => undefined}
      reload={async () => undefined}
      back={() => undefined}
    />,
  );
  const resend = screen.getByRole("button", { name: `Re-send (reply of ${when(failed.at)})` });
  expect(screen.queryByRole("button", { name: /Re-send \(email\)/ })).toBeNull();
  await act(async () => void fireEvent.click(resend));
  expect(posts).toEqual([{ path: "enquiries/enq-1/resend", body: { destination: "reply:r-1" } }]);
  expect(deliveryName("reply:gone", [failed])).toBe("reply");
  expect(deliveryName("webhook", [failed])).toBe("webhook");
});
