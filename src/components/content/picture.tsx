import type { CSSProperties } from "react";
import type { IGatsbyImageData } from "gatsby-plugin-image";
import * as styles from "./picture.module.css";

export interface PictureProps {
  image: IGatsbyImageData;
  alt: string;
  className?: string;
  /** "eager" for images in the first screen, "lazy" (the default) for the rest. */
  loading?: "eager" | "lazy";
  /** The page's largest image: fetched before other images. */
  priority?: boolean;
}

/**
 * A responsive image from the build's image pipeline (gatsbyImageData), as plain server-rendered
 * HTML: <picture> with a WebP source and a JPEG/PNG fallback, width and height set, its box
 * reserved by aspect-ratio and filled with the image's dominant colour until it arrives.
 *
 * Why not gatsby-plugin-image's <GatsbyImage>: in the browser it hydrates every image (effects,
 * an inline script per image, the image hidden until its load event) and loads a 36 KB chunk with
 * React's server renderer. The browser's own lazy loading, decoding and priority hints do the same
 * work here with no JavaScript at all.
 */
export function Picture({ image, alt, className, loading = "lazy", priority = false }: PictureProps) {
  const { layout, width, height, backgroundColor, images } = image;
  const fallback = images.fallback;
  const box: CSSProperties = { aspectRatio: `${width} / ${height}`, backgroundColor };
  if (layout === "constrained") box.maxWidth = width;
  if (layout === "fixed") Object.assign(box, { width, height });
  const wrapperClass = [styles.wrapper, styles[layout], className].filter(Boolean).join(" ");
  return (
    <div className={wrapperClass} style={box}>
      <picture>
        {(images.sources ?? []).map((source) => (
          <source
            key={`${source.type}${source.media ?? ""}`}
            type={source.type}
            media={source.media}
            srcSet={source.srcSet}
            sizes={source.sizes ?? fallback?.sizes}
          />
        ))}
        <img
          className={styles.image}
          src={fallback?.src}
          srcSet={fallback?.srcSet}
          sizes={fallback?.sizes}
          width={width}
          height={height}
          alt={alt}
          loading={loading}
          decoding="async"
          // React 18 does not know the camel-cased prop; the attribute is what browsers read.
          {...(priority ? { fetchpriority: "high" } : {})}
        />
      </picture>
    </div>
  );
}
