import { Link } from "gatsby";
import type { MenuEntry, NavItem } from "../../types/content";
import { ChevronIcon } from "./icons";
import * as styles from "./site-nav.module.css";

interface ServicesDropdownProps {
  item: NavItem;
  entries: readonly MenuEntry[];
  toggleLabel: string;
}

/** One page has one main navigation, so one id is enough; the button names it. */
const DROPDOWN_ID = "services-menu";

/**
 * The Services nav item: a link to /services, and beside it a button that opens the dropdown for
 * keyboard and touch users. The button is the HTML Popover API's invoker, so it works with no script
 * at all: the browser keeps its expanded state, Escape and a click elsewhere close the list, and
 * focus returns to the button. On desktop CSS also shows the list on hover and while the link has
 * focus (a preview; Tab then reaches the button, which opens it for the keyboard).
 */
export function ServicesDropdown({ item, entries, toggleLabel }: ServicesDropdownProps) {
  return (
    <li className={styles.services}>
      <Link to={item.to} className={styles.link}>
        {item.label}
      </Link>
      <button type="button" className={styles.toggle} popovertarget={DROPDOWN_ID} aria-label={toggleLabel}>
        <ChevronIcon />
      </button>
      <ul id={DROPDOWN_ID} popover="auto" className={styles.dropdown}>
        {entries.map((entry) => (
          <li key={entry.to}>
            <Link to={entry.to} className={styles.dropdownLink}>
              {entry.label}
            </Link>
          </li>
        ))}
      </ul>
    </li>
  );
}
