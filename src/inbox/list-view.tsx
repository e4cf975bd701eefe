/**
 * The list: newest first, a page at a time ("More" asks for the page after the last one shown, by
 * the API's keyset `next`), refreshed when the filters change or the change mark moves.
 */
import { useEffect, useState } from "react";
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
  // The first page, again whenever the filters or the change mark move.
  useEffect(() => {
    let live = true;
    get<Page>(`enquiries${filterQuery(filters)}`).then(
      (page) => {
        if (!live) return;
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
      setItems((shown) => [...(shown ?? []), ...page.enquiries]);
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
