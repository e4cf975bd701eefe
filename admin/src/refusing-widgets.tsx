/**
 * The text and number widgets refusing what the content check would refuse (refusals.ts): a required
 * text of spaces only, and a key or order that another entry of the collection has (the field carries
 * `unique`, src/node/content/cms-config.ts). Decap validates synchronously when Publish is clicked, so
 * the other entries are read beforehand, through Decap's own query of the collection (the backend the
 * studio uses, local or a git host), and again whenever the value changes or the window regains focus:
 * an entry saved in the meantime, in this tab or another, is known by the time the editor publishes.
 */
import { Component, createRef, type ComponentType, type Ref } from "react";
import { blankText, takenValue, type OtherEntry } from "./refusals";

interface Immutable {
  get(key: string): unknown;
  toJS?(): unknown;
}

interface ControlProps {
  value?: unknown;
  field: Immutable;
  forID?: string;
  collection?: Immutable;
  getEntry?: () => Immutable;
  query?: (
    forID: string,
    collection: string,
    searchFields: string[],
    term: string,
    file?: string,
    limit?: number,
  ) => Promise<{ payload?: { hits?: OtherEntry[] } }>;
}

type Validity = boolean | { error: unknown } | Promise<unknown>;
type Refusal = { error: { type: "CUSTOM"; message: string } };

const refuse = (message: string): Refusal => ({ error: { type: "CUSTOM", message } });

/**
 * Decap reuses a query's answer for 10 s when it is asked the same thing (the same limit among others):
 * each read asks for a different, never reached, limit so that it gets the collection as it is now.
 */
let reads = 0;
const freshLimit = () => 1_000_000 + ++reads;

type Checked = { isValid?: () => Validity };

export function withRefusals(Inner: ComponentType<ControlProps & { ref?: Ref<Checked> }>): ComponentType<ControlProps> {
  return class Refusing extends Component<ControlProps> {
    private readonly inner = createRef<Checked>();
    /** The collection's entries as last read; undefined until the first read ends. */
    private others: OtherEntry[] | undefined;
    private failed = false;

    private get unique() {
      const unique = this.props.field.get("unique") as Immutable | undefined;
      return unique?.toJS?.() as { label_field: string; file_name?: boolean } | undefined;
    }

    private read = () => {
      const { query, forID, collection, field } = this.props;
      const unique = this.unique;
      if (!unique || !query || !collection) return;
      // The key field: every entry has it, and the query needs a text field to search.
      const key = String(collection.get("identifier_field") ?? field.get("name"));
      query(forID ?? "", String(collection.get("name")), [key], "", undefined, freshLimit()).then(
        (answer) => {
          this.others = answer.payload?.hits ?? [];
          this.failed = false;
        },
        (error: unknown) => {
          // A file the query cannot read (no key at all): the content check still reports what is saved.
          console.warn("The studio could not read the other entries to check this field:", error);
          this.failed = true;
        },
      );
    };

    override componentDidMount() {
      if (!this.unique) return;
      this.read();
      window.addEventListener("focus", this.read);
    }

    override componentDidUpdate(previous: ControlProps) {
      if (this.unique && previous.value !== this.props.value) this.read();
    }

    override componentWillUnmount() {
      window.removeEventListener("focus", this.read);
    }

    // Decap calls the control's isValid (through its ref) when it validates the entry before a save.
    isValid = (): Validity => {
      const { field, value, collection, getEntry } = this.props;
      const label = String(field.get("label") ?? field.get("name"));
      const blank = blankText(label, value, field.get("required") !== false);
      if (blank) return refuse(blank);
      const unique = this.unique;
      if (unique && !this.failed) {
        if (!this.others) return refuse(`${label}: the other entries are still being read; publish again in a moment.`);
        const entry = getEntry?.();
        const isNew = entry?.get("newRecord") === true;
        const taken = takenValue(
          {
            name: String(field.get("name")),
            label,
            labelField: unique.label_field,
            fileName: unique.file_name === true,
            singular: String(collection?.get("label_singular") ?? "entry").toLowerCase(),
          },
          value,
          { slug: isNew ? undefined : (entry?.get("slug") as string | undefined) },
          this.others,
        );
        if (taken) return refuse(taken);
      }
      return this.inner.current?.isValid?.() ?? true;
    };

    override render() {
      return <Inner ref={this.inner} {...this.props} />;
    }
  };
}
