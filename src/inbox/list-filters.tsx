/** The list's search and filters: a form, so Enter applies it; applying pushes them into the URL. */
import { useState, type FormEvent } from "react";
import { STATUSES, type Filters, type Person } from "./api";

export function ListFilters({
  filters,
  people,
  apply,
}: {
  filters: Filters;
  people: Person[];
  apply: (filters: Filters) => void;
}) {
  const [draft, setDraft] = useState(filters);
  // New filters from the URL (Back, a count's link): the draft follows. Set while rendering, not in an
  // effect, and not by remounting the form, which would drop the keyboard's focus from the search box.
  const [shown, setShown] = useState(filters);
  if (shown !== filters) {
    setShown(filters);
    setDraft(filters);
  }
  const field = (key: keyof Filters) => ({
    id: `filter-${key}`,
    name: key,
    value: draft[key] ?? "",
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value || undefined }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply(draft);
  };
  return (
    <form className="inbox-filters" role="search" onSubmit={submit}>
      <div className="inbox-field inbox-field-wide">
        <label htmlFor="filter-q">Search name, e-mail and message</label>
        <input type="search" {...field("q")} />
      </div>
      <div className="inbox-field">
        <label htmlFor="filter-status">Status</label>
        <select {...field("status")}>
          <option value="">Any</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div className="inbox-field">
        <label htmlFor="filter-owner">Owner</label>
        <select {...field("owner")}>
          <option value="">Anyone or no one</option>
          <option value="none">No one</option>
          {people.map((p) => (
            <option key={p.id} value={String(p.id)}>
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <div className="inbox-field">
        <label htmlFor="filter-flagged">Possible spam</label>
        <select {...field("flagged")}>
          <option value="">Either</option>
          <option value="true">Flagged</option>
          <option value="false">Not flagged</option>
        </select>
      </div>
      <div className="inbox-field">
        <label htmlFor="filter-from">Received from</label>
        <input type="date" {...field("from")} />
      </div>
      <div className="inbox-field">
        <label htmlFor="filter-to">Received before</label>
        <input type="date" {...field("to")} />
      </div>
      <div className="inbox-filter-actions">
        <button type="submit" className="inbox-button">
          Show
        </button>
        <button type="button" className="inbox-button-quiet" onClick={() => apply({})}>
          Clear
        </button>
      </div>
    </form>
  );
}
