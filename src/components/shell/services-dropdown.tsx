import { memo, useCallback, useEffect, useId, useRef, useState, type FocusEvent } from "react";
import { Link } from "gatsby";
import type { MenuEntry, NavItem } from "../../types/content";
import { ChevronIcon } from "./icons";
import { useScriptTakeover } from "../../hooks/use-script-takeover";
import * as styles from "./site-nav.module.css";

interface ServicesDropdownProps {
  item: NavItem;
  entries: readonly MenuEntry[];
  toggleLabel: string;
  /** Called when any link is chosen, so the mobile menu closes too. */
  onNavigate: () => void;
}

/**
 * The Services nav item: a link to /services plus a disclosure button for its dropdown.
 * Hover and focus entry open it softly; a click on the button pins it open, a second click closes
 * it. Without pinning, the hover that precedes every mouse click (and the emulated hover of a tap)
 * would open the list only for the click to close it again.
 *
 * Before and without JavaScript, CSS opens the list on hover and on focus inside the item (desktop
 * only), and a placeholder of the button's size holds its place: a button would do nothing then and
 * announce a wrong state. Once scripts run, the state starts from what CSS showed at that moment.
 */
export function ServicesDropdown({ item, entries, toggleLabel, onNavigate }: ServicesDropdownProps) {
  const [hovered, setHovered] = useState(false);
  const [focusOpened, setFocusOpened] = useState(false);
  const [pinned, setPinned] = useState(false);
  const itemRef = useRef<HTMLLIElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listId = useId();
  const open = hovered || focusOpened || pinned;
  const scripted = useScriptTakeover(() => {
    setHovered(itemRef.current?.matches(":hover") ?? false);
    setFocusOpened(itemRef.current?.matches(":focus-within") ?? false);
  });

  const close = useCallback(() => {
    setHovered(false);
    setFocusOpened(false);
    setPinned(false);
  }, []);

  // Safari does not focus a clicked button, so a blur cannot be relied on to close a pinned list.
  useEffect(() => {
    if (!pinned) return undefined;
    const onPointerDown = (e: PointerEvent) => {
      if (!(e.target instanceof Node && itemRef.current?.contains(e.target))) close();
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [pinned, close]);

  const choose = useCallback(() => {
    close();
    onNavigate();
  }, [close, onNavigate]);
  const isInside = (e: FocusEvent<HTMLElement>) =>
    e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget);

  return (
    // The item only gathers what happens to its link, button and list (hover, focus, Escape).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <li
      ref={itemRef}
      className={styles.services}
      data-scripted={scripted}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={(e) => {
        if (!isInside(e)) setFocusOpened(true);
      }}
      onBlur={(e) => {
        if (!isInside(e)) close();
      }}
      onKeyDown={(e) => {
        if (e.key !== "Escape" || !open) return;
        // Handled here so the mobile menu around us does not close as well.
        e.stopPropagation();
        close();
        buttonRef.current?.focus();
      }}
    >
      <Link to={item.to} className={styles.link} onClick={choose}>
        {item.label}
      </Link>
      {scripted ? (
        <button
          ref={buttonRef}
          type="button"
          className={styles.toggle}
          aria-expanded={open}
          aria-controls={listId}
          aria-label={toggleLabel}
          onClick={() => (pinned ? close() : setPinned(true))}
        >
          <ChevronIcon />
        </button>
      ) : (
        <span className={`${styles.toggle} ${styles.togglePlaceholder}`} aria-hidden="true">
          <ChevronIcon />
        </span>
      )}
      <ul id={listId} className={styles.dropdown} hidden={scripted && !open}>
        <DropdownEntries entries={entries} onChoose={choose} />
      </ul>
    </li>
  );
}

/** The 19 entries, memoised: opening and closing the list, and the hand-over to scripts, leave them as they are. */
const DropdownEntries = memo(function DropdownEntries({
  entries,
  onChoose,
}: {
  entries: readonly MenuEntry[];
  onChoose: () => void;
}) {
  return entries.map((entry) => (
    <li key={entry.to}>
      <Link to={entry.to} className={styles.dropdownLink} onClick={onChoose}>
        {entry.label}
      </Link>
    </li>
  ));
});
