/**
 * The image field with notes beside it, in plain words: that an upload was saved under another
 * name because its own was taken (unique-uploads.ts), and that the picture is narrower, or far
 * larger, than its place needs, by the content check's own rules (narrowImageWarning and
 * largeImageWarning; the field carries the schema's width as `min_width`,
 * src/node/content/cms-config.ts), so the editor hears it before publishing.
 */
import { Component, createRef, type ComponentType } from "react";
import { largeImageWarning, narrowImageWarning } from "../../src/node/content/image-width-rule";
import { pictureSize, type PictureContext, type PictureSize } from "./picture-width";
import { useUploadNote } from "./unique-uploads";

interface ControlProps extends PictureContext {
  value?: unknown;
  field: { get(key: string): unknown };
}

/** Decap's file control, as its Widget uses it through the ref. */
interface Inner {
  shouldComponentUpdate?(next: ControlProps): boolean;
  isValid?(): unknown;
  focus?(path?: unknown): void;
}

/** Static rules for the notes' classes, added to the page once (Decap's own styles are generated). */
export const PICTURE_NOTE_STYLE = `
.studio-picture-note { margin: 8px 0 0; padding: 8px 12px; border-radius: 4px; background: #e8f1fb; color: #1b3c5c; }
.studio-picture-warning, .studio-text-warning { margin: 8px 0 0; padding: 8px 12px; border-radius: 4px; background: #fff4e0; color: #6b4200; }
`;

function UploadNote({ value }: { value: unknown }) {
  const note = useUploadNote(value);
  return note ? (
    <p className="studio-picture-note" role="status">
      {note}
    </p>
  ) : null;
}

export function withPictureNotes(
  Control: ComponentType<ControlProps & { ref?: unknown }>,
): ComponentType<ControlProps> {
  return class PictureField extends Component<ControlProps, { measured?: { value: unknown; size: PictureSize } }> {
    override state: { measured?: { value: unknown; size: PictureSize } } = {};
    private readonly inner = createRef<Inner>();

    // Decap's Widget asks its control (this) whether to update; the file control answers for a
    // picture just chosen in the media library (its value arrives that way), so it is asked here.
    override shouldComponentUpdate(next: ControlProps, nextState: this["state"]): boolean {
      if (nextState !== this.state) return true;
      return this.inner.current?.shouldComponentUpdate?.(next) ?? true;
    }

    isValid = () => this.inner.current?.isValid?.() ?? true;
    focus = (path?: unknown) => this.inner.current?.focus?.(path);

    override componentDidMount() {
      this.measure();
    }

    override componentDidUpdate(previous: ControlProps) {
      if (previous.value !== this.props.value) this.measure();
    }

    // The file's own width and bytes (picture-width.ts), kept with the value it is for: a later choice wins.
    private measure() {
      const { value } = this.props;
      if (typeof value !== "string" || !value || typeof this.props.field.get("min_width") !== "number") return;
      void pictureSize(value, this.props).then((size) => {
        if (size !== undefined && this.props.value === value) this.setState({ measured: { value, size } });
      });
    }

    override render() {
      const { field, value } = this.props;
      const wanted = field.get("min_width");
      const { measured } = this.state;
      const warning =
        typeof wanted === "number" && typeof value === "string" && measured?.value === value
          ? (narrowImageWarning(value, measured.size.width, wanted) ?? largeImageWarning(value, measured.size, wanted))
          : undefined;
      return (
        <div>
          <Control {...this.props} ref={this.inner} />
          <UploadNote value={value} />
          {warning ? (
            <p className="studio-picture-warning" role="alert">
              {String(field.get("label") ?? field.get("name"))}: {warning}.
            </p>
          ) : null}
        </div>
      );
    }
  };
}
