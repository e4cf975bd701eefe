/**
 * The list: newest first, a page at a time ("More" asks for the page after the last one shown, by
 * the API's keyset `next`), refreshed when the filters change or the change mark moves. A refresh of
 * the same filters asks for as many as are shown, so it undoes no More.
 */
import { useEffect, useRef, useState } from "react";
import { exportUrl, filterQuery, get, type Filters, type ListedEnquiry, type Person } from "./api";
import { when } from "./format";
import { ListFilters } from "./list-filters";
import { ListSummary } from "./list-summary";
import { useSay } from "./status-message";
import { hrefOf, type Route } from "./use-route";

interface Page {
  enquiries: ListedEnquiry[];
  next?: string;
}

/** The API's page: its first when none is asked for, and the most one request may ask for. */
export const PAGE = { first: 50, max: 200 };

/** At least `count` of the list (fewer when there are no more), by pages of at most PAGE.max. */
export async function loadList(filters: Filters, count: number): Promise<Page> {
  const enquiries: ListedEnquiry[] = [];
  let next: string | undefined;
  do {
    const limit = String(Math.min(PAGE.max, count - enquiries.length));
    const page = await get<Page>(`enquiries${filterQuery(filters, { limit, ...(next && { after: next }) })}`);
    enquiries.push(...page.enquiries);
    next = page.next;
  } while (next && enquiries.length < count);
  return { enquiries, next };
}

interface Props {
  filters: Filters;
  people: Person[];
  go: (route: Route) => void;
  changes: number;
}

export function ListView({ filters, people, go, changes }: Props) {
  const say = useSay();
  const [items, setItems] = useState<ListedEnquiry[] | undefined>();
  const [next, setNext] = useState<string | undefined>();
  // How many are shown, and of which filters: a refresh of those keeps as many (More stays done).
  const shown = useRef({ query: "", count: 0 });
  // The first page, again whenever the filters or the change mark move.
  useEffect(() => {
    let live = true;
    const query = filterQuery(filters);
    const count = query === shown.current.query ? Math.max(PAGE.first, shown.current.count) : PAGE.first;
    shown.current.query = query;
    loadList(filters, count).then(
      (page) => {
        if (!live) return;
        shown.current.count = page.enquiries.length;
        setItems(page.enquiries);
        setNext(page.next);
      },
      (error: Error) => live && say(`The list could not be loaded: ${error.message}`, "error"),
    );
    return () => {
      live = false;
    };
  }, [filters, changes, say]);
  const more = async (after: string) => {
    try {
      const page = await get<Page>(`enquiries${filterQuery(filters, { after })}`);
      shown.current.count += page.enquiries.length;
      setItems((before) => [...(before ?? []), ...page.enquiries]);
      setNext(page.next);
    } catch (error) {
      say(`No more could be loaded: ${(error as Error).message}`, "error");
    }
  };
  const open = (id: string) => go({ id, filters });
  return (
    <>
      <ListSummary changes={changes} pick={(picked) => go({ filters: { ...filters, ...picked } })} />
      <ListFilters filters={filters} people={people} apply={(f) => go({ filters: f })} />
      <div className="inbox-list-head">
        <h2 id="list-title">
          {items
            ? `${items.length}${next ? "+" : ""} ${items.length === 1 && !next ? "enquiry" : "enquiries"}`
            : "Enquiries"}
        </h2>
        <a className="inbox-button-quiet" href={exportUrl(filters)} download="enquiries.csv">
          Export these as CSV
        </a>
      </div>
      {items?.length === 0 && <p>No enquiry matches.</p>}
      <ul className="inbox-list" aria-labelledby="list-title">
        {items?.map((e) => (
          <li key={e.id} className="inbox-item" data-status={e.status}>
            <a
              className="inbox-item-name"
              href={hrefOf({ id: e.id, filters })}
              onClick={(event) => (event.preventDefault(), open(e.id))}
            >
              {e.name || "(no name)"}
            </a>
            <span className="inbox-muted"> @{e.emailDomain}</span>
            <p className="inbox-item-preview">{e.preview}</p>
            <p className="inbox-item-meta">
              <time dateTime={e.receivedAt}>{when(e.receivedAt)}</time>
              <span className="inbox-badge">{e.status}</span>
              <span>{e.owner ? `Owner: ${e.owner.name ?? e.owner.id}` : "No owner"}</span>
              <span className={e.flagged ? "inbox-flag" : undefined}>
                {e.flagged ? "possible spam" : `screening: ${e.screening}`}
              </span>
            </p>
          </li>
        ))}
      </ul>
      {next && (
        <button type="button" className="inbox-button" onClick={() => void more(next)}>
          More
        </button>
      )}
    </>
  );
}
