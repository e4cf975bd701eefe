/**
 * @jest-environment node
 *
 * The form as the server renders it, which is what a visitor has before (or without) JavaScript:
 * a plain HTML form that posts itself to the enquiry endpoint, with the browser's own validation.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { EnquiryForm, type EnquiryFormText } from "../../src/components/enquiry-form/enquiry-form";
import { content } from "../support/content";

const text = content.contact.form as unknown as EnquiryFormText;
const formTag = (html: string) => html.match(/<form[^>]*>/)![0];

test("posts to {endpoint}/email with method post, and leaves validation to the browser (no novalidate)", () => {
  const tag = formTag(renderToStaticMarkup(<EnquiryForm text={text} endpoint="/api" />));
  expect(tag).toContain('action="/api/email"');
  expect(tag).toContain('method="post"');
  expect(tag).not.toMatch(/novalidate/i);
});

test("the fields are named as the receiver reads them, with the browser's required and e-mail checks", () => {
  const html = renderToStaticMarkup(<EnquiryForm text={text} endpoint="https://backend.example.org/" />);
  expect(formTag(html)).toContain('action="https://backend.example.org/email"');
  const input = (name: string) => html.match(new RegExp(`<(input|textarea)[^>]*name="${name}"[^>]*>`))?.[0] ?? "";
  expect(input("name")).toMatch(/ required=""/);
  expect(input("email")).toMatch(/ required=""/);
  expect(input("email")).toMatch(/ type="email"/);
  expect(input("phone")).toMatch(/ type="tel"/);
  expect(input("phone")).not.toMatch(/required/);
  expect(input("message")).toMatch(/^<textarea[^>]* required=""/);
  expect(html).toMatch(/<button type="submit"/);
});

test("the honeypot is in the page without scripts, hidden from screen readers and the keyboard, posted empty", () => {
  const html = renderToStaticMarkup(<EnquiryForm text={text} endpoint="/api" />);
  const trap = html.match(/<div[^>]* aria-hidden="true"><label for="([^"]+)">([^<]*)<\/label>(<input[^>]*>)<\/div>/);
  expect(trap?.[2]).toBe("Leave this empty");
  const input = trap![3]!;
  expect(input).toContain(`id="${trap![1]}"`);
  expect(input).toContain('name="cyrus_confirm_field"');
  expect(input).toContain('type="text"');
  expect(input).toContain('tabindex="-1"');
  expect(input).toMatch(/ autocomplete="off"/i);
  expect(input).toContain('value=""');
  expect(input).not.toMatch(/required/);
  // After the message, before the button: every visible field keeps its place in the order.
  expect(html.indexOf("<textarea")).toBeLessThan(html.indexOf("cyrus_confirm_field"));
  expect(html.indexOf("cyrus_confirm_field")).toBeLessThan(html.indexOf("<button"));
});
