import { Link } from "gatsby";
import type { MenuEntry, NavItem } from "../../types/content";
import { ChevronIcon } from "./icons";
import * as styles from "./site-nav.module.css";

interface ServicesDropdownProps {
  item: NavItem;
  entries: readonly MenuEntry[];
}

/**
 * The Services nav item: a link to /services and its dropdown, which CSS opens on hover and while
 * focus is inside the item (desktop only; so Tab walks through its entries). The chevron is a shape
 * out of the accessibility tree, not a button: without a script a button would do nothing and
 * announce a state it cannot keep.
 */
export function ServicesDropdown({ item, entries }: ServicesDropdownProps) {
  return (
    <li className={styles.services}>
      <Link to={item.to} className={styles.link}>
        {item.label}
      </Link>
      <span className={styles.toggle} aria-hidden="true">
        <ChevronIcon />
      </span>
      <ul className={styles.dropdown}>
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
