import { act, fireEvent, render, screen } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import userEvent from "@testing-library/user-event";
import { EnquiryForm, type EnquiryFormText } from "../../src/components/enquiry-form/enquiry-form";
import {
  configuredEndpoint,
  enquiryUrl,
  readCookie,
  sendEnquiry,
} from "../../src/components/enquiry-form/send-enquiry";
import { content } from "../support/content";
import { islandOn } from "../support/island";

// The wording as an editor wrote it; the three messages must be the spec's, character for character.
const text = content.contact.form as unknown as EnquiryFormText;
const REQUIRED = "Please fill in all required fields.";
const SUCCESS = "Your message has been sent successfully!";
const ERROR = "There was an error sending your message. Please try again later.";
const ENDPOINT = "/api";
const filled = {
  name: "Asha Raman",
  phone: "+91 44 0000 0000",
  email: "asha@example.com",
  message: "We plan a phase II study.",
};
/** The spam screening's honeypot: its key goes with every enquiry, empty for a person. */
const HONEYPOT = "cyrus_confirm_field";
const untouchedTrap = { [HONEYPOT]: "" };

/** Just enough of a Response: the client reads only `ok` and `status`, never the body. */
function answer(status: number, body = "", contentType = "application/json"): Response {
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: { get: (name: string) => (name.toLowerCase() === "content-type" ? contentType : null) },
    text: async () => body,
    json: async () => JSON.parse(body),
  } as unknown as Response;
}

/** A fetch answer the test settles when it wants, to look at the form while it is sending. */
function deferred() {
  let resolve!: (value: Response) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<Response>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

let fetchMock: jest.Mock;
let errorSpy: jest.SpyInstance;
const originalFetch = global.fetch;

function clearCookies() {
  for (const pair of document.cookie.split(";")) {
    const name = pair.split("=")[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

beforeEach(() => {
  fetchMock = jest.fn(async () => answer(200, '{"ok":true}'));
  global.fetch = fetchMock as unknown as typeof fetch;
  errorSpy = jest.spyOn(console, "error").mockImplementation(() => undefined);
  clearCookies();
});

afterEach(() => {
  global.fetch = originalFetch;
  errorSpy.mockRestore();
  clearCookies();
  delete process.env.GATSBY_ENQUIRY_API;
});

type Variant = "component" | "island";
let variant: Variant = "component";

/**
 * The form as the browser gets it: the component rendered by React (`npm run develop`, the studio),
 * or its server HTML taken over by its island (src/islands/enquiry-form.ts, the built site), which
 * sends to the build-time endpoint: the default, ENDPOINT, here.
 */
function renderForm(endpoint: string = ENDPOINT) {
  const user = userEvent.setup();
  const element = <EnquiryForm text={text} endpoint={endpoint} />;
  if (variant === "component") render(element);
  else islandOn(element, "enquiry-form");
  const fields = {
    name: screen.getByLabelText("Name"),
    phone: screen.getByLabelText(/^Phone/),
    email: screen.getByLabelText("Email *"),
    message: screen.getByLabelText("Message"),
  };
  const button = screen.getByRole("button", { name: "Send" });
  const status = screen.getByRole("status");
  const fill = async (values: Partial<typeof filled> = filled) => {
    for (const [key, value] of Object.entries(values)) {
      await user.clear(fields[key as keyof typeof fields]);
      if (value) await user.type(fields[key as keyof typeof fields], value);
    }
  };
  return { user, fields, button, status, fill };
}

function sentRequest(call = 0): { url: string; init: RequestInit; headers: Record<string, string>; body: unknown } {
  const [url, init] = fetchMock.mock.calls[call] as [string, RequestInit];
  return { url, init, headers: init.headers as Record<string, string>, body: JSON.parse(String(init.body)) };
}

describe.each<Variant>(["component", "island"])("the enquiry form (%s)", (v) => {
  beforeEach(() => {
    variant = v;
  });

  test("the data file holds the spec's three messages exactly", () => {
    expect([text.requiredMessage, text.successMessage, text.errorMessage]).toEqual([REQUIRED, SUCCESS, ERROR]);
  });

  test("fields with labels, required and type attributes, noValidate, and an empty live region from the start", () => {
    const { fields, button, status } = renderForm();
    expect(fields.name).toBeRequired();
    expect(fields.name).toHaveAttribute("type", "text");
    expect(fields.phone).not.toBeRequired();
    expect(fields.phone).toHaveAttribute("type", "tel");
    expect(screen.getByText("(optional)")).toBeInTheDocument();
    expect(fields.email).toBeRequired();
    expect(fields.email).toHaveAttribute("type", "email");
    expect(fields.message).toBeRequired();
    expect(fields.message.tagName).toBe("TEXTAREA");
    const form = button.closest("form")!;
    // Rendered in the browser (hydrated): the spec's own message replaces the browser's validation.
    expect(form.noValidate).toBe(true);
    expect(form).toHaveAttribute("method", "post");
    expect(form).toHaveAttribute("action", "/api/email");
    expect(form).toHaveAttribute("data-state", "idle");
    expect(button).toHaveAttribute("type", "submit");
    expect(button).toBeEnabled();
    expect(status).toHaveAttribute("aria-live", "polite");
    expect(status).toBeEmptyDOMElement();
    expect(form).toContainElement(status);
  });

  test("inputs stop at the lengths the receiver accepts", () => {
    const { fields } = renderForm();
    expect(fields.name).toHaveAttribute("maxLength", "200");
    expect(fields.phone).toHaveAttribute("maxLength", "40");
    expect(fields.email).toHaveAttribute("maxLength", "254");
    expect(fields.message).toHaveAttribute("maxLength", "5000");
  });

  test.each([
    ["all empty", {}],
    ["name empty", { name: "" }],
    ["email empty", { email: "" }],
    ["message empty", { message: "" }],
    ["whitespace-only name, email and message", { name: "   ", email: " \t ", message: "\n  \n" }],
  ])("%s: the required message, no request, the empty fields marked", async (_case, override) => {
    const { user, fields, button, status, fill } = renderForm();
    const values =
      Object.keys(override).length === 0 ? { name: "", phone: "", email: "", message: "" } : { ...filled, ...override };
    await fill(values);
    await user.click(button);
    expect(status).toHaveTextContent(REQUIRED);
    expect(status).toHaveAttribute("data-kind", "required");
    expect(fetchMock).not.toHaveBeenCalled();
    const firstBlank = (["name", "email", "message"] as const).find((k) => values[k].trim() === "")!;
    expect(fields[firstBlank]).toHaveAttribute("aria-invalid", "true");
    expect(fields[firstBlank]).toHaveAccessibleDescription(REQUIRED);
    expect(fields[firstBlank]).toHaveFocus();
    expect(fields.phone).not.toHaveAttribute("aria-invalid");
  });

  test("phone is optional: a valid enquiry without it is sent with an empty phone", async () => {
    const { user, button, status, fill } = renderForm();
    await fill({ ...filled, phone: "" });
    await user.click(button);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(sentRequest().body).toEqual({ ...filled, phone: "", ...untouchedTrap });
    expect(status).toHaveTextContent(SUCCESS);
  });

  test("a valid submit: one POST to {endpoint}/email with JSON of exactly name, phone, email, message and the empty honeypot", async () => {
    const { user, button, fill } = renderForm();
    await fill();
    await user.click(button);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const { url, init, headers, body } = sentRequest();
    expect(url).toBe("/api/email");
    expect(init.method).toBe("POST");
    expect(headers["Content-Type"]).toBe("application/json");
    expect(headers).not.toHaveProperty("X-XSRF-TOKEN");
    expect(Object.keys(body as object)).toEqual(["name", "phone", "email", "message", HONEYPOT]);
    expect(body).toEqual({ ...filled, ...untouchedTrap });
  });

  test("single-line fields are sent trimmed, the message exactly as typed", async () => {
    const { user, button, fill } = renderForm();
    await fill({
      name: "  Asha Raman ",
      phone: " 044 ",
      email: " asha@example.com  ",
      message: "  Line one\nLine two  ",
    });
    await user.click(button);
    expect(sentRequest().body).toEqual({
      name: "Asha Raman",
      phone: "044",
      email: "asha@example.com",
      message: "  Line one\nLine two  ",
      ...untouchedTrap,
    });
  });

  test("the honeypot: out of sight, of the accessibility tree and of the Tab order, labelled to be left empty", async () => {
    const { user, fields, button } = renderForm();
    const trap = button.closest("form")!.elements.namedItem(HONEYPOT) as HTMLInputElement;
    expect(trap).toHaveAttribute("type", "text");
    expect(trap).toHaveAttribute("tabindex", "-1");
    expect(trap).toHaveAttribute("autocomplete", "off");
    expect(trap).not.toBeRequired();
    expect(trap).toHaveValue("");
    expect(trap.labels?.[0]).toHaveTextContent("Leave this empty");
    expect(trap.parentElement).toHaveAttribute("aria-hidden", "true");
    // Not among the form's controls for assistive technology, by role or by label.
    expect(screen.getAllByRole("textbox").map((e) => e.getAttribute("name"))).toEqual([
      "name",
      "phone",
      "email",
      "message",
    ]);
    expect(screen.queryByRole("textbox", { name: "Leave this empty" })).toBeNull();
    // Tab walks name, phone, e-mail, message and the button, never the honeypot.
    await user.click(fields.name);
    const stops: Array<string | null> = [];
    for (let i = 0; i < 5; i += 1) {
      stops.push(document.activeElement?.getAttribute("name") ?? document.activeElement?.textContent ?? null);
      await user.tab();
    }
    expect(stops).toEqual(["name", "phone", "email", "message", "Send"]);
  });

  test("a filled honeypot (a script, a password manager) is sent as it is: the receiver flags, never refuses", async () => {
    const { user, button, fill } = renderForm();
    await fill();
    const trap = button.closest("form")!.elements.namedItem(HONEYPOT) as HTMLInputElement;
    fireEvent.change(trap, { target: { value: " https://spam.example " } });
    await user.click(button);
    expect(sentRequest().body).toEqual({ ...filled, [HONEYPOT]: " https://spam.example " });
    expect(screen.getByRole("status")).toHaveTextContent(SUCCESS);
  });

  test("the XSRF-TOKEN cookie's value, decoded, goes in the X-XSRF-TOKEN header", async () => {
    document.cookie = "theme=dark; path=/";
    document.cookie = "XSRF-TOKEN=abc%2F123%3D; path=/";
    const { user, button, fill } = renderForm();
    await fill();
    await user.click(button);
    expect(sentRequest().headers["X-XSRF-TOKEN"]).toBe("abc/123=");
  });

  test("no X-XSRF-TOKEN header without the cookie", async () => {
    document.cookie = "theme=dark; path=/";
    const { user, button, fill } = renderForm();
    await fill();
    await user.click(button);
    expect(sentRequest().headers).not.toHaveProperty("X-XSRF-TOKEN");
  });

  test("while sending: button disabled and showing the sending text, previous message cleared; then success empties the fields", async () => {
    const pending = deferred();
    fetchMock
      .mockReturnValueOnce(Promise.reject(new TypeError("Failed to fetch")))
      .mockReturnValueOnce(pending.promise);
    const { user, fields, button, status, fill } = renderForm();
    await fill();
    await user.click(button);
    expect(status).toHaveTextContent(ERROR);

    await user.click(button);
    expect(button).toBeDisabled();
    expect(button).toHaveTextContent(text.sending);
    expect(status).toBeEmptyDOMElement();
    expect(button.closest("form")).toHaveAttribute("data-state", "submitting");
    expect(button.closest("form")).toHaveAttribute("aria-busy", "true");

    await act(async () => pending.resolve(answer(201, "")));
    expect(status).toHaveTextContent(SUCCESS);
    expect(status).toHaveAttribute("data-kind", "success");
    expect(status.textContent).toBe(SUCCESS);
    for (const field of Object.values(fields)) expect(field).toHaveValue("");
    expect(button).toBeEnabled();
    expect(button).toHaveTextContent(text.submit);
  });

  test("a 2xx with an empty or non-JSON body is a success (the answer is never read)", async () => {
    fetchMock.mockResolvedValueOnce(answer(204, "", "text/plain"));
    const { user, button, status, fill } = renderForm();
    await fill();
    await user.click(button);
    expect(status).toHaveTextContent(SUCCESS);
    expect(errorSpy).not.toHaveBeenCalled();
  });

  test.each([
    [
      "a 500 HTML error page",
      () => Promise.resolve(answer(500, "<html><body>Internal Server Error</body></html>", "text/html")),
    ],
    ["a 400 JSON refusal", () => Promise.resolve(answer(400, '{"error":"invalid"}'))],
    ["a 302 (not 2xx)", () => Promise.resolve(answer(302))],
    ["a network error", () => Promise.reject(new TypeError("Failed to fetch"))],
  ])("%s: the error message, the values kept, the error logged", async (_case, failure) => {
    fetchMock.mockImplementationOnce(failure);
    const { user, fields, button, status, fill } = renderForm();
    await fill();
    await user.click(button);
    expect(status).toHaveTextContent(ERROR);
    expect(status.textContent).toBe(ERROR);
    expect(status).toHaveAttribute("data-kind", "error");
    expect(fields.name).toHaveValue(filled.name);
    expect(fields.phone).toHaveValue(filled.phone);
    expect(fields.email).toHaveValue(filled.email);
    expect(fields.message).toHaveValue(filled.message);
    expect(errorSpy).toHaveBeenCalledTimes(1);
    expect(button).toBeEnabled();
  });

  test("the validation message is cleared at the start of the next submit", async () => {
    const pending = deferred();
    fetchMock.mockReturnValueOnce(pending.promise);
    const { user, button, status, fill } = renderForm();
    await user.click(button);
    expect(status).toHaveTextContent(REQUIRED);
    await fill();
    await user.click(button);
    expect(status).toBeEmptyDOMElement();
    expect(button).toBeDisabled();
    await act(async () => pending.resolve(answer(200)));
    expect(status).toHaveTextContent(SUCCESS);
  });

  test("a double click, or a second submit before the answer, sends one request", async () => {
    const pending = deferred();
    fetchMock.mockReturnValueOnce(pending.promise);
    const { user, button, fill } = renderForm();
    await fill();
    await user.dblClick(button);
    await user.click(button);
    fireEvent.submit(button.closest("form")!);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await act(async () => pending.resolve(answer(200)));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  test("without an endpoint it posts to the build-time default, the site's own /api", async () => {
    const user = userEvent.setup();
    render(<EnquiryForm text={text} />);
    await user.type(screen.getByLabelText("Name"), filled.name);
    await user.type(screen.getByLabelText("Email *"), filled.email);
    await user.type(screen.getByLabelText("Message"), filled.message);
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(sentRequest().url).toBe("/api/email");
  });
});

describe("before and after hydration", () => {
  test("what a visitor typed before the scripts arrived survives hydration and the next render, and is sent", async () => {
    const container = document.createElement("div");
    container.innerHTML = renderToString(<EnquiryForm text={text} endpoint={ENDPOINT} />);
    document.body.appendChild(container);
    const form = container.querySelector("form")!;
    expect(form.noValidate).toBe(false); // the server's form: the browser validates
    // Typed into the server's HTML, as a visitor on a slow phone would.
    (form.elements.namedItem("name") as HTMLInputElement).value = "Asha Raman";
    (form.elements.namedItem("email") as HTMLInputElement).value = "asha@example.com";

    await act(async () => {
      hydrateRoot(container, <EnquiryForm text={text} endpoint={ENDPOINT} />);
    });
    expect(form.noValidate).toBe(true);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Message"), "Typed after hydration.");
    expect(screen.getByLabelText("Name")).toHaveValue("Asha Raman");
    expect(screen.getByLabelText("Email *")).toHaveValue("asha@example.com");

    await user.click(screen.getByRole("button", { name: "Send" }));
    await screen.findByText(SUCCESS);
    expect(sentRequest().body).toEqual({
      name: "Asha Raman",
      phone: "",
      email: "asha@example.com",
      message: "Typed after hydration.",
      ...untouchedTrap,
    });
    container.remove();
  });

  test("a honeypot filled before hydration (autofill into the server's HTML) is kept and sent", async () => {
    const container = document.createElement("div");
    container.innerHTML = renderToString(<EnquiryForm text={text} endpoint={ENDPOINT} />);
    document.body.appendChild(container);
    const form = container.querySelector("form")!;
    (form.elements.namedItem(HONEYPOT) as HTMLInputElement).value = "filled early";
    await act(async () => {
      hydrateRoot(container, <EnquiryForm text={text} endpoint={ENDPOINT} />);
    });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Name"), filled.name);
    await user.type(screen.getByLabelText("Email *"), filled.email);
    await user.type(screen.getByLabelText("Message"), filled.message);
    await user.click(screen.getByRole("button", { name: "Send" }));
    await screen.findByText(SUCCESS);
    expect(sentRequest().body).toEqual({ ...filled, phone: "", [HONEYPOT]: "filled early" });
    container.remove();
  });
});

describe("sendEnquiry", () => {
  test.each([
    ["/api", "/api/email"],
    ["/api/", "/api/email"],
    ["https://backend.example.org", "https://backend.example.org/email"],
    ["https://backend.example.org/", "https://backend.example.org/email"],
    ["https://backend.example.org/v1//", "https://backend.example.org/v1/email"],
  ])("endpoint %s → %s", (endpoint, url) => {
    expect(enquiryUrl(endpoint)).toBe(url);
  });

  test("the endpoint comes from GATSBY_ENQUIRY_API, default /api", () => {
    expect(configuredEndpoint()).toBe("/api");
    process.env.GATSBY_ENQUIRY_API = "https://backend.example.org/";
    expect(configuredEndpoint()).toBe("https://backend.example.org/");
  });

  test("readCookie finds and decodes one cookie among others", () => {
    expect(readCookie("XSRF-TOKEN", "a=1; XSRF-TOKEN=x%20y%3D; b=2")).toBe("x y=");
    expect(readCookie("XSRF-TOKEN", "MY-XSRF-TOKEN=no; a=1")).toBeUndefined();
    expect(readCookie("XSRF-TOKEN", "XSRF-TOKEN=")).toBeUndefined();
    expect(readCookie("XSRF-TOKEN", "XSRF-TOKEN=%E0%A4%A")).toBe("%E0%A4%A");
    expect(readCookie("XSRF-TOKEN", "")).toBeUndefined();
  });

  test("the XSRF token is never sent to another origin", async () => {
    document.cookie = "XSRF-TOKEN=secret; path=/";
    const fetchImpl = jest.fn(async () => answer(200));
    await sendEnquiry(filled, { endpoint: "https://backend.example.org", fetchImpl });
    await sendEnquiry(filled, { endpoint: `${window.location.origin}/api/`, fetchImpl });
    const headers = (fetchImpl.mock.calls as unknown as [string, RequestInit][]).map(([, init]) => init.headers);
    expect(headers[0]).not.toHaveProperty("X-XSRF-TOKEN");
    expect(headers[1]).toHaveProperty("X-XSRF-TOKEN", "secret");
  });

  test("sends only the four keys and the honeypot's (empty unless given), resolves on 2xx and rejects otherwise", async () => {
    const fetchImpl = jest.fn(async () => answer(200));
    const sent = (call: number) =>
      JSON.parse(String((fetchImpl.mock.calls[call] as unknown as [string, RequestInit])[1].body)) as unknown;
    await sendEnquiry({ ...filled, extra: "dropped" } as typeof filled, { endpoint: "/api", fetchImpl });
    expect(sent(0)).toEqual({ ...filled, ...untouchedTrap });
    await sendEnquiry({ ...filled, [HONEYPOT]: "x" }, { endpoint: "/api", fetchImpl });
    expect(sent(1)).toEqual({ ...filled, [HONEYPOT]: "x" });
    await expect(
      sendEnquiry(filled, { endpoint: "/api", fetchImpl: async () => answer(299) }),
    ).resolves.toBeUndefined();
    await expect(
      sendEnquiry(filled, { endpoint: "/api", fetchImpl: async () => answer(503, "<html/>", "text/html") }),
    ).rejects.toThrow("HTTP 503");
  });
});

describe("the form in a preview (the editing studio's)", () => {
  const note = "Preview: this form sends nothing.";

  test("says so, and sends nothing: no action to post to, read-only fields, a disabled button", async () => {
    const user = userEvent.setup();
    render(<EnquiryForm text={text} endpoint={ENDPOINT} previewNote={note} />);
    expect(screen.getByText(note)).toBeVisible();
    const button = screen.getByRole("button", { name: "Send" });
    const form = button.closest("form")!;
    expect(form).not.toHaveAttribute("action");
    expect(button).toBeDisabled();
    expect(screen.getByLabelText("Name")).toHaveAttribute("readonly");
    await user.click(button);
    fireEvent.submit(form);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByRole("status")).toBeEmptyDOMElement();
  });
});
