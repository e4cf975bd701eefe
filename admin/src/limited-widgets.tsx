/**
 * The one-line and paragraph widgets with the schema's maxLength checked by the studio itself, so
 * that the message can say how long the text is (a pattern's message cannot). The field carries the
 * limit as `max_length` (src/node/content/cms-config.ts).
 */
import { Component, type ComponentType } from "react";
import { tooLong } from "./field-limits";

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
      return <Inner {...this.props} />;
    }
  };
}
