/**
 * The image field: its picture (a saved one too: Decap's control is asked again once the file is
 * loaded, field-asset.ts) with its file name beside it, and two notes, in plain words: that an upload
 * was saved under another name because its own was taken (unique-uploads.ts), and that the picture is
 * narrower, or far larger, than its place needs, by the content check's own rules (narrowImageWarning
 * and largeImageWarning; the field carries the schema's width as `min_width`,
 * src/node/content/cms-config.ts), so the editor hears it before publishing.
 */
import { Component, createRef, type ComponentType } from "react";
import { largeImageWarning, narrowImageWarning } from "../../src/node/content/image-width-rule";
import { whenLoaded } from "./field-asset";
import { pictureSize, type PictureContext, type PictureSize } from "./picture-width";
import { useUploadNote } from "./unique-uploads";

type GetAsset = (path: string, field: unknown) => unknown;

interface ControlProps extends PictureContext {
  value?: unknown;
  field: { get(key: string): unknown };
  getAsset: GetAsset;
}

interface State {
  measured?: { value: unknown; size: PictureSize };
  /** Decap's getAsset, as a new function each time a file has loaded: the control then asks again. */
  getAsset?: GetAsset;
}

/** Decap's file control, as its Widget uses it through the ref. */
interface Inner {
  shouldComponentUpdate?(next: ControlProps): boolean;
  isValid?(): unknown;
  focus?(path?: unknown): void;
}

/**
 * Static rules for the notes' classes, added to the page once (Decap's own styles are generated). The
 * file name sits to the right of Decap's thumbnail: a 155 px box with a 20 px margin, inside the
 * control's 2 px border and 16 px by 20 px padding.
 */
export const PICTURE_NOTE_STYLE = `
.studio-picture { position: relative; }
.studio-picture-file { position: absolute; top: 18px; left: 197px; right: 22px; margin: 0; font-family: monospace; overflow-wrap: anywhere; }
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
  return class PictureField extends Component<ControlProps, State> {
    override state: State = {};
    private readonly inner = createRef<Inner>();
    private stopWaiting: () => void = () => undefined;

    // Decap's Widget asks its control (this) whether to update; the file control answers for a
    // picture just chosen in the media library (its value arrives that way), so it is asked here.
    override shouldComponentUpdate(next: ControlProps, nextState: State): boolean {
      if (nextState !== this.state) return true;
      return this.inner.current?.shouldComponentUpdate?.(this.controlProps(next, nextState)) ?? true;
    }

    isValid = () => this.inner.current?.isValid?.() ?? true;
    focus = (path?: unknown) => this.inner.current?.focus?.(path);

    override componentDidMount() {
      this.changed();
    }

    override componentDidUpdate(previous: ControlProps) {
      if (previous.value !== this.props.value) this.changed();
    }

    override componentWillUnmount() {
      this.stopWaiting();
    }

    private changed() {
      this.measure();
      this.stopWaiting();
      const { value } = this.props;
      if (typeof value !== "string" || !value) return;
      this.stopWaiting = whenLoaded(value, this.props, () => {
        if (this.props.value === value) this.setState({ getAsset: (path, field) => this.props.getAsset(path, field) });
      });
    }

    // The file's own width and bytes (picture-width.ts), kept with the value it is for: a later choice wins.
    private measure() {
      const { value } = this.props;
      if (typeof value !== "string" || !value || typeof this.props.field.get("min_width") !== "number") return;
      void pictureSize(value, this.props).then((size) => {
        if (size !== undefined && this.props.value === value) this.setState({ measured: { value, size } });
      });
    }

    private controlProps(props: ControlProps, state: State): ControlProps {
      return state.getAsset ? { ...props, getAsset: state.getAsset } : props;
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
        <div className="studio-picture">
          <Control {...this.controlProps(this.props, this.state)} ref={this.inner} />
          {typeof value === "string" && value ? (
            <p className="studio-picture-file" title={value}>
              {value.slice(value.lastIndexOf("/") + 1)}
            </p>
          ) : null}
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
