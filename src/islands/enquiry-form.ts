/**
 * The enquiry form's client post (src/components/enquiry-form/enquiry-form.tsx renders the form and
 * describes it): idle → submitting → success | error, or "required" with the blank required fields
 * marked in place. The server HTML is a plain form that posts itself; once scripted, noValidate
 * hands validation to the spec's own message and this sends the JSON request instead (send-enquiry.ts,
 * shared with the component). The DOM is the state: fields keep whatever the visitor typed before.
 */
import {
  ENQUIRY_FIELD_NAMES,
  FORM_FIELD_NAMES,
  type EnquiryBody,
  type EnquiryFieldName,
} from "../enquiry-contract/enquiry-fields";
import { enquiryPayload, missingField } from "../components/enquiry-form/enquiry-values";
import { sendEnquiry } from "../components/enquiry-form/send-enquiry";
import type { EnquiryFormIslandData } from "./enquiry-form-data";
import { islandData, islandReady } from "./island-data";

type Notice = "required" | "success" | "error";
type Field = HTMLInputElement | HTMLTextAreaElement;

function enquiryForm(form: HTMLFormElement, text: EnquiryFormIslandData) {
  const field = (name: string) => form.elements.namedItem(name) as Field | null;
  const status = form.querySelector<HTMLElement>('[role="status"]');
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (!status || !submit || FORM_FIELD_NAMES.some((name) => !field(name))) return;
  const submitText = submit.textContent ?? "";
  const messages: Record<Notice, string> = {
    required: text.requiredMessage,
    success: text.successMessage,
    error: text.errorMessage,
  };
  let notice: Notice | null = null;
  let submitting = false;
  // The button is disabled while sending; this guards a second Enter or click in the same task.
  let inFlight = false;

  const values = (): EnquiryBody =>
    Object.fromEntries(FORM_FIELD_NAMES.map((name) => [name, field(name)!.value])) as EnquiryBody;

  /** Renders the state as the component does: attributes, the button, the message, the fields' marks. */
  const render = () => {
    form.setAttribute("aria-busy", String(submitting));
    form.dataset.state = submitting ? "submitting" : (notice ?? "idle");
    submit.disabled = submitting;
    submit.textContent = submitting ? text.sending : submitText;
    status.textContent = notice ? messages[notice] : "";
    if (notice) status.dataset.kind = notice;
    else delete status.dataset.kind;
    const current = values();
    for (const name of ENQUIRY_FIELD_NAMES) {
      const input = field(name)!;
      input.readOnly = submitting;
      if (notice === "required" && missingField(current, name)) {
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", status.id);
      } else {
        input.removeAttribute("aria-invalid");
        input.removeAttribute("aria-describedby");
      }
    }
  };

  form.noValidate = true;
  // A field typed into after the required message loses its mark at once, as in the component.
  form.addEventListener("input", () => {
    if (notice === "required") render();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (inFlight) return;
    notice = null;
    const current = values();
    const blank = ENQUIRY_FIELD_NAMES.find((name: EnquiryFieldName) => missingField(current, name));
    if (blank) {
      notice = "required";
      render();
      field(blank)!.focus();
      return;
    }
    inFlight = true;
    submitting = true;
    render();
    sendEnquiry(enquiryPayload(current))
      .then(() => {
        for (const name of FORM_FIELD_NAMES) field(name)!.value = "";
        notice = "success";
      })
      .catch((error: unknown) => {
        console.error("The enquiry could not be sent:", error);
        notice = "error";
      })
      .finally(() => {
        inFlight = false;
        submitting = false;
        render();
      });
  });
}

const text = islandData<EnquiryFormIslandData>("enquiry-form");
if (text) {
  // A preview's form (the studio's) has no action: it sends nothing.
  for (const form of document.querySelectorAll<HTMLFormElement>("form[action][method=post]")) enquiryForm(form, text);
  islandReady("enquiry-form");
}
