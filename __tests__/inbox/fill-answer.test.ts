/**
 * A saved answer as the inbox's reply box inserts it (src/inbox/fill-answer.ts): its placeholders
 * filled with the visitor's name and the person's signature, at the cursor, or after the draft.
 */
import { fillAnswer, insertInto } from "../../src/inbox/fill-answer";

const values = { name: "Asha Verma", signature: "Priya Nair\nCyrus Research" };

test("{name} and {signature} are filled, every time they occur; other braces stay as written", () => {
  expect(fillAnswer("Dear {name},\n\nThank you, {name}.\n\n{signature}\n{other} {NAME}", values)).toBe(
    "Dear Asha Verma,\n\nThank you, Asha Verma.\n\nPriya Nair\nCyrus Research\n{other} {NAME}",
  );
  // A name with $& or $1 is inserted as typed, not read as a replacement pattern.
  expect(fillAnswer("Dear {name},", { name: "A $& $1 B", signature: "" })).toBe("Dear A $& $1 B,");
  expect(fillAnswer("Thanks.\n{signature}", { name: "", signature: "" })).toBe("Thanks.\n");
});

test("at the cursor, replacing a selection; the cursor goes after what was inserted", () => {
  expect(insertInto("Hello  there", "Asha", { start: 6, end: 6 })).toEqual({ text: "Hello Asha there", cursor: 10 });
  expect(insertInto("Hello XXX there", "Asha", { start: 6, end: 9 })).toEqual({ text: "Hello Asha there", cursor: 10 });
  expect(insertInto("Hi", "Asha", { start: 99, end: 99 })).toEqual({ text: "HiAsha", cursor: 6 });
});

test("with no cursor, after the draft (a blank line between), or alone in an empty box", () => {
  expect(insertInto("", "Dear Asha")).toEqual({ text: "Dear Asha", cursor: 9 });
  expect(insertInto("First line", "Dear Asha")).toEqual({ text: "First line\n\nDear Asha", cursor: 21 });
  expect(insertInto("First line\n", "Dear Asha").text).toBe("First line\n\nDear Asha");
  expect(insertInto("First line\n\n", "Dear Asha").text).toBe("First line\n\nDear Asha");
});
