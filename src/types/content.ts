/**
 * Plain data shapes that presentational components take as props. Pages and templates map their
 * GraphQL results onto these, so components can be rendered in tests without Gatsby.
 */
import type { IGatsbyImageData } from "gatsby-plugin-image";

export interface ImageWithAlt {
  image: IGatsbyImageData;
  alt: string;
}

export interface Address {
  streetAddress: string;
  locality: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  countryCode: string;
}

/** Interface wording shared by the whole site (data/site/site.yaml `labels`). */
export interface Labels {
  skipLink: string;
  homeLink: string;
  mainNav: string;
  menuOpen: string;
  menuClose: string;
  servicesToggle: string;
  scrollTop: string;
  followUs: string;
  addressHeading: string;
  contactHeading: string;
  mobile: string;
  telephone: string;
  email: string;
  website: string;
  back: string;
  carouselPause: string;
  carouselPlay: string;
  /** e.g. "{n} of {total}" */
  slideOf: string;
  redirectNotice: string;
  copyright: string;
}

export interface SocialLink {
  name: string;
  url: string;
}

export interface SiteIdentity {
  name: string;
  legalName: string;
  tagline: string;
  logo: IGatsbyImageData;
  logoAlt: string;
  foundingYear: number;
  address: Address;
  mobile: string;
  telephone: string;
  email: string;
  website: string;
  social: readonly SocialLink[];
  messaging: { number: string; greeting: string; label: string };
  labels: Labels;
}

export interface NavItem {
  label: string;
  to: string;
  /** The Services item: a link plus a button that opens the dropdown. */
  dropdown?: boolean | null;
}

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

export interface ServiceSubsection {
  heading: string;
  paragraphs?: readonly string[] | null;
  items?: readonly string[] | null;
}

export interface ServiceSection {
  heading?: string | null;
  paragraphs?: readonly string[] | null;
  items?: readonly string[] | null;
  columns?: number | null;
  subsections?: readonly ServiceSubsection[] | null;
}

export interface GalleryItem {
  caption: string;
  alt: string;
  image: IGatsbyImageData;
}

export interface ServiceContent {
  slug: string;
  title: string;
  banner: ImageWithAlt;
  intro: readonly string[];
  sections: readonly ServiceSection[];
  gallery: readonly GalleryItem[];
}
