import { Link } from "gatsby";
import * as styles from "./content.module.css";

/** The service pages' Back button: a link, since it goes to another page. */
export function BackLink({ label, to = "/services" }: { label: string; to?: string }) {
  return (
    <Link to={to} className={styles.back}>
      <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20">
        <path
          d="M15 5l-7 7 7 7"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      {label}
    </Link>
  );
}
