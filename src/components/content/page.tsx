import type { ReactNode } from "react";
import * as styles from "./content.module.css";

/** Centred, readable column for page content. */
export function Container({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return <div className={wide ? styles.containerWide : styles.container}>{children}</div>;
}

export function Section({
  children,
  tone = "plain",
  labelledBy,
}: {
  children: ReactNode;
  tone?: "plain" | "alt";
  labelledBy?: string;
}) {
  return (
    <section className={tone === "alt" ? styles.sectionAlt : styles.section} aria-labelledby={labelledBy}>
      {children}
    </section>
  );
}
