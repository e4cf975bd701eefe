/**
 * @jest-environment node
 *
 * The studio's message for a text over its limit names the field, the limit and the text's length.
 */
import { tooLong, withStudioPhrases } from "../../admin/src/field-limits";

test("a text over its limit: the field, the limit and its own length, in a sentence", () => {
  expect(tooLong("Meta title", 60, "x".repeat(76))).toBe("Meta title: at most 60 characters (this one has 76)");
  expect(tooLong("Meta title", 60, "x".repeat(60))).toBeUndefined();
  // Counted as the content check counts: an emoji is one character.
  expect(tooLong("Meta title", 2, "🙂🙂")).toBeUndefined();
  expect(tooLong("Meta title", 60, undefined)).toBeUndefined();
});

test("the studio's phrases replace Decap's own, keeping the rest", () => {
  const decap = {
    editor: { editorControlPane: { widget: { required: "%{fieldLabel} is required.", regexPattern: "didn't match" } } },
    app: { header: { content: "Contents" } },
  };
  expect(withStudioPhrases(decap)).toEqual({
    editor: {
      editorControlPane: {
        widget: { required: "%{fieldLabel} is required.", regexPattern: "%{fieldLabel}: %{pattern}" },
      },
    },
    app: { header: { content: "Contents" } },
  });
});
