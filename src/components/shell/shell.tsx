import type { ReactNode } from "react";
import type { ShellData } from "../../types/content";
import { FloatingButtons } from "./floating-buttons";
import { Footer } from "./footer";
import { Header } from "./header";
import * as styles from "./shell.module.css";

/** Page frame shared by every page. Presentational: the Layout wrapper queries ShellData. */
export function Shell({ data, children }: { data: ShellData; children: ReactNode }) {
  return (
    <>
      <a href="#main" className={styles.skipLink}>
        {data.site.labels.skipLink}
      </a>
      <Header site={data.site} nav={data.nav} servicesMenu={data.servicesMenu} />
      {/* tabIndex lets the skip link move keyboard focus here, not only the scroll position. */}
      <main id="main" tabIndex={-1} className={styles.main}>
        {children}
      </main>
      <Footer site={data.site} />
      <FloatingButtons site={data.site} />
    </>
  );
}
