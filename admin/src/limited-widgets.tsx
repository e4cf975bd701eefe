/**
 * The one-line and paragraph widgets with the schema's maxLength checked by the studio itself, so
 * that the message can say how long the text is (a pattern's message cannot), and a warning beside a
 * text far longer than its place shows well, by the content check's own rule (longTextWarning). The
 * field carries the limit as `max_length` and its place as `text_place` (src/node/content/cms-config.ts).
 */
import { Component, type ComponentType } from "react";
import { longTextWarning, type TextPlace } from "../../src/node/content/text-length-rule";
import { tooLong } from "./field-limits";

/** The warning beside a text field, or none; `field` as Decap gives it to the control. */
export function textWarning(field: ControlProps["field"], value: unknown): string | undefined {
  const place = field.get("text_place");
  const warning = typeof place === "string" ? longTextWarning(value, place as TextPlace) : undefined;
  return warning ? `${String(field.get("label") ?? field.get("name"))}: ${warning}.` : undefined;
}

interface ControlProps {
  value?: unknown;
  field: { get(key: string): unknown };
}

type Validity = true | { error: { type: string; message: string } };

export function withLengthLimit(Inner: ComponentType<ControlProps>): ComponentType<ControlProps> {
  return class LengthLimited extends Component<ControlProps> {
    // Decap calls the control's isValid (through its ref) when it validates the entry before a save.
    isValid = (): Validity => {
      const { field, value } = this.props;
      const max = field.get("max_length");
      const label = String(field.get("label") ?? field.get("name"));
      const message = typeof max === "number" ? tooLong(label, max, value) : undefined;
      return message ? { error: { type: "CUSTOM", message } } : true;
    };

    override render() {
      const warning = textWarning(this.props.field, this.props.value);
      return (
        // No element of its own around the input: Decap's layout and styles stay as they were.
        <>
          <Inner {...this.props} />
          {warning ? (
            <p className="studio-text-warning" role="status">
              {warning}
            </p>
          ) : null}
        </>
      );
    }
  };
}
