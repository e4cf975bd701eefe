/**
 * A relation field (an entry of the Services menu) naming an entry that is gone (its file deleted
 * outside the studio) showed as a blank select, and the preview kept the old name: the field now says
 * which name is missing and what to do, refuses to publish it (the content check would refuse the file),
 * and the preview shows the same words; for an entry that exists, the preview shows the name the
 * select shows (the service's menu label) rather than its slug.
 */
import { Component, createRef, type ComponentType, type ReactNode } from "react";
import { missingNote, useTargets, type RelationField } from "./relation-targets";

interface ControlProps {
  value?: unknown;
  field: RelationField;
}
interface Inner {
  shouldComponentUpdate?(next: ControlProps): boolean;
  isValid?(): unknown;
  focus?(path?: unknown): void;
}

export const RELATION_NOTE_STYLE = `
.studio-relation-missing { margin: 8px 0 0; padding: 8px 12px; border-radius: 4px; background: #fff4e0; color: #6b4200; }
`;

function MissingNote({ field, value }: ControlProps) {
  useTargets(field);
  const note = missingNote(field, value);
  return note ? (
    <p className="studio-relation-missing" role="alert">
      {note}
    </p>
  ) : null;
}

export function withMissingNote(Control: ComponentType<ControlProps & { ref?: unknown }>): ComponentType<ControlProps> {
  return class RelationField extends Component<ControlProps> {
    private readonly inner = createRef<Inner>();

    // Decap's Widget asks its control (this) whether to update: the relation control answers (the
    // note below follows the entries read by itself).
    override shouldComponentUpdate(next: ControlProps): boolean {
      return this.inner.current?.shouldComponentUpdate?.(next) ?? true;
    }

    // Decap validates before a save: a name the content check would refuse is refused here first.
    isValid = () => {
      const note = missingNote(this.props.field, this.props.value);
      return note ? { error: { type: "CUSTOM", message: note } } : (this.inner.current?.isValid?.() ?? true);
    };
    focus = (path?: unknown) => this.inner.current?.focus?.(path);

    override render() {
      return (
        <div>
          <Control {...this.props} ref={this.inner} />
          <MissingNote {...this.props} />
        </div>
      );
    }
  };
}

interface PreviewProps {
  value?: unknown;
  field: RelationField;
}

/** The preview of one value: the entry's name, or the missing note, in Decap's own preview box. */
export function withNames(Preview: ComponentType<PreviewProps & { value?: ReactNode }>): ComponentType<PreviewProps> {
  return function NamedPreview(props: PreviewProps) {
    const targets = useTargets(props.field);
    const value = typeof props.value === "string" ? props.value : undefined;
    const shown = value === undefined || !targets ? props.value : (targets.names.get(value) ?? targets.missing(value));
    return <Preview {...props} value={shown as ReactNode} />;
  };
}
