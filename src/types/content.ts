/**
 * Plain data shapes that presentational components take as props. Pages and templates map their
 * GraphQL results onto these, so components can be rendered in tests without Gatsby.
 *
 * The content fields are not written here: they come from the GraphQL types (namespace Queries) that
 * the build's typegen writes to src/gatsby-types.d.ts from the JSON Schemas in data/schemas, so a field
 * added to a schema reaches these types with the next build. Written here is only what the schemas
 * cannot say: images as IGatsbyImageData (after imageOf), and shapes the pages compute.
 */
import type { IGatsbyImageData } from "gatsby-plugin-image";

/** The fields whose value may be null: the YAML may leave them out. */
type MaybeKeys<T> = { [K in keyof T]-?: null extends T[K] ? K : never }[keyof T];
type Flat<T> = { [K in keyof T]: T[K] };

/**
 * A content type of the GraphQL schema as plain data: without a node's own fields (id, parent,
 * children, internal), and with the fields that may be null optional as well, at every level.
 * Image files stay Files: pages turn them into IGatsbyImageData with imageOf.
 */
type Content<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends ReadonlyArray<infer Item>
    ? ReadonlyArray<Content<Item>>
    : T extends Queries.File
      ? T
      : Flat<
          { [K in Exclude<keyof T, keyof Queries.Node | MaybeKeys<T>>]: Content<T[K]> } & {
            [K in Exclude<MaybeKeys<T>, keyof Queries.Node>]?: Content<T[K]>;
          }
        >;

/**
 * A content file as its YAML gives it (src/node/content/read-content.ts, for tests and scripts): plain
 * data like Content, with an image as the path written and an entry of another file (a linked node) as
 * the key that names it.
 */
export type RawContent<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends ReadonlyArray<infer Item>
    ? ReadonlyArray<RawContent<Item>>
    : T extends Queries.File | Queries.Node
      ? string
      : Flat<
          { [K in Exclude<keyof T, keyof Queries.Node | MaybeKeys<T>>]: RawContent<T[K]> } & {
            [K in Exclude<MaybeKeys<T>, keyof Queries.Node>]?: RawContent<T[K]>;
          }
        >;

/** A content file (a node type of the GraphQL schema) as its YAML gives it. */
export type RawFile<T extends Queries.Node> = RawContent<Omit<T, keyof Queries.Node>>;

export interface ImageWithAlt {
  image: IGatsbyImageData;
  alt: string;
}

/** data/site/site.yaml `address` */
export type Address = Content<Queries.SiteAddress>;

/** Interface wording shared by the whole site (data/site/site.yaml `labels`; slideOf is e.g. "{n} of {total}"). */
export type Labels = Content<Queries.SiteLabels>;

export type SocialLink = Content<Queries.SocialLink>;

/**
 * data/site/site.yaml as the shell shows it, with the logo made into an image; the description and
 * the share image are for the head (hooks/use-site-metadata.ts).
 */
export interface SiteIdentity extends Content<
  Omit<Queries.SiteYaml, "logo" | "description" | "shareImage" | "shareImageAlt">
> {
  logo: IGatsbyImageData;
}

/**
 * An entry of data/navigation/navigation.yaml `main`; `dropdown`: the Services item, a link plus a button that opens
 * the dropdown.
 */
export type NavItem = Content<Queries.NavItem>;

export interface MenuEntry {
  label: string;
  to: string;
}

export interface ShellData {
  site: SiteIdentity;
  nav: NavItem[];
  /** The Services dropdown, in its own order (data/navigation/navigation.yaml `servicesMenu`). */
  servicesMenu: MenuEntry[];
}

export interface CarouselLabels {
  pause: string;
  play: string;
  /** e.g. "{n} of {total}" */
  slideOf: string;
}

export type ServiceSubsection = Content<Queries.ServiceSubsection>;

export type ServiceSection = Content<Queries.ServiceSection>;

/** A regulatory approval, data/approvals/<key>.yaml, shown in a service's gallery. */
export interface GalleryItem extends Content<Omit<Queries.ApprovalsYaml, "key" | "image">> {
  image: IGatsbyImageData;
}

/** A service page (data/services/<slug>.yaml) as the template maps it. */
export interface ServiceContent extends Content<Pick<Queries.ServicesYaml, "slug" | "title" | "intro">> {
  banner: ImageWithAlt;
  sections: readonly ServiceSection[];
  gallery: readonly GalleryItem[];
}
