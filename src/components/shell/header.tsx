import { Link } from "gatsby";
import { Picture } from "../content/picture";
import type { MenuEntry, NavItem, SiteIdentity } from "../../types/content";
import { SiteNav } from "./site-nav";
import * as styles from "./header.module.css";

interface HeaderProps {
  site: SiteIdentity;
  nav: readonly NavItem[];
  servicesMenu: readonly MenuEntry[];
}

export function Header({ site, nav, servicesMenu }: HeaderProps) {
  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <div className={styles.brand}>
          {/* The link is named by labels.homeLink, which starts with the visible name. */}
          <Link to="/home" className={styles.brandLink} aria-label={site.labels.homeLink}>
            <Picture image={site.logo} alt="" className={styles.logo} loading="eager" />
            <span className={styles.name}>{site.name}</span>
          </Link>
          <p className={styles.tagline}>{site.tagline}</p>
        </div>
        <SiteNav nav={nav} servicesMenu={servicesMenu} labels={site.labels} />
      </div>
    </header>
  );
}
