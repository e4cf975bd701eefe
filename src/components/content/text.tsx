import * as styles from "./content.module.css";

export function Paragraphs({ items }: { items?: readonly string[] | null }) {
  if (!items?.length) return null;
  return (
    <>
      {items.map((text) => (
        <p key={text}>{text}</p>
      ))}
    </>
  );
}

export function BulletList({ items, columns = 1 }: { items?: readonly string[] | null; columns?: number | null }) {
  if (!items?.length) return null;
  return (
    <ul className={styles.list} data-columns={columns ?? 1}>
      {items.map((text) => (
        <li key={text}>{text}</li>
      ))}
    </ul>
  );
}
