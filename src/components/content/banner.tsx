import { GatsbyImage } from "gatsby-plugin-image";
import type { ImageWithAlt } from "../../types/content";
import * as styles from "./content.module.css";

/** The page's first and largest image: fetched eagerly and first, with its box reserved. */
export function Banner({ image, alt }: ImageWithAlt) {
  return (
    <div className={styles.banner}>
      <GatsbyImage image={image} alt={alt} loading="eager" className={styles.bannerImage} {...{ fetchpriority: "high" }} />
    </div>
  );
}
