import { Picture } from "./picture";
import type { ImageWithAlt } from "../../types/content";
import * as styles from "./content.module.css";

/** The page's first and largest image: fetched eagerly and first, with its box reserved. */
export function Banner({ image, alt }: ImageWithAlt) {
  return (
    <div className={styles.banner}>
      <Picture image={image} alt={alt} loading="eager" className={styles.bannerImage} priority />
    </div>
  );
}
