/**
 * The text and number widgets refusing what the content check would refuse (refusals.ts): a required
 * text of spaces only, an added page's slug that is another page's address (the field carries
 * `page_address`), and a key or order that another entry of the collection has (the field carries
 * `unique`, src/node/content/cms-config.ts). Decap validates synchronously when Publish is clicked, so
 * the other entries are read beforehand, through Decap's own query of the collection (the backend the
 * studio uses, local or a git host), and again after each change of the value and when the window
 * regains focus: an entry saved in the meantime, in this tab, another one or by someone else, counts.
 * A value changed since the last read is refused until the read ends, rather than checked against
 * what may be stale.
 */
import { Component, createRef, type ComponentType, type Ref } from "react";
import { blankText, pageAddressTaken, takenValue, type OtherEntry } from "./refusals";

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

/**
 * Reads under way or due, over every refusing field on the page: while any is, the page's body carries
 * `data-studio-checking`, so that a test (or a script driving the studio) can wait for the checks to be
 * ready before it publishes, instead of racing them (a publish then is refused "in a moment").
 */
let reading = 0;
const startReading = () => {
  reading += 1;
  document.body.dataset.studioChecking = "true";
};
const endReading = () => {
  reading = Math.max(0, reading - 1);
  if (reading === 0) delete document.body.dataset.studioChecking;
};

type Checked = { isValid?: () => Validity };

export function withRefusals(Inner: ComponentType<ControlProps & { ref?: Ref<Checked> }>): ComponentType<ControlProps> {
  return class Refusing extends Component<ControlProps> {
    private readonly inner = createRef<Checked>();
    /** The collection's entries as last read; undefined until the first read ends. */
    private others: OtherEntry[] | undefined;
    /** How many times the value changed, and at which of those changes the last finished read began. */
    private changes = 0;
    private readAt = -1;
    private failed = false;
    private timer: ReturnType<typeof setTimeout> | undefined;

    private get unique() {
      const unique = this.props.field.get("unique") as Immutable | undefined;
      return unique?.toJS?.() as { label_field: string; file_name?: boolean } | undefined;
    }

    private read = () => {
      const { query, forID, collection, field } = this.props;
      if (!this.unique || !query || !collection) return;
      const at = this.changes;
      // The key field: every entry has it, and the query needs a text field to search.
      const key = String(collection.get("identifier_field") ?? field.get("name"));
      startReading();
      query(forID ?? "", String(collection.get("name")), [key], "", undefined, freshLimit())
        .then(
          (answer) => {
            if (at < this.readAt) return; // a later read ended first
            this.others = answer.payload?.hits ?? [];
            this.readAt = at;
            this.failed = false;
          },
          (error: unknown) => {
            // A file the query cannot read (no key at all): the content check still reports what is saved.
            console.warn("The studio could not read the other entries to check this field:", error);
            this.failed = true;
          },
        )
        .finally(endReading);
    };

    override componentDidMount() {
      if (!this.unique) return;
      this.read();
      window.addEventListener("focus", this.read);
    }

    override componentDidUpdate(previous: ControlProps) {
      if (!this.unique || previous.value === this.props.value) return;
      // Read again once the typing pauses: a git host is asked for the whole folder each time.
      this.changes += 1;
      clearTimeout(this.timer);
      this.timer = setTimeout(this.read, 300);
    }

    override componentWillUnmount() {
      clearTimeout(this.timer);
      window.removeEventListener("focus", this.read);
    }

    // Decap calls the control's isValid (through its ref) when it validates the entry before a save.
    isValid = (): Validity => {
      const { field, value, collection, getEntry } = this.props;
      const label = String(field.get("label") ?? field.get("name"));
      const blank = blankText(label, value, field.get("required") !== false);
      if (blank) return refuse(blank);
      const address = field.get("page_address") === true ? pageAddressTaken(value) : undefined;
      if (address) return refuse(address);
      const unique = this.unique;
      if (unique && !this.failed) {
        const entry = getEntry?.();
        const isNew = entry?.get("newRecord") === true;
        const taken =
          this.others &&
          takenValue(
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
        // Not read since the last change: another entry may have taken the value meanwhile.
        if (this.readAt < this.changes)
          return refuse(`${label}: the other entries are still being read to check it; publish again in a moment.`);
      }
      return this.inner.current?.isValid?.() ?? true;
    };

    override render() {
      return <Inner ref={this.inner} {...this.props} />;
    }
  };
}
