/**
 * A content file's data, as the editor has it while typing, turned into the props of the site's view
 * that shows it: what src/pages/*.tsx and src/templates/service.tsx do with GraphQL results. The data
 * may be incomplete (a new entry, a field being typed), so every value has an empty default and the
 * view renders whatever is there.
 */
import type { AboutViewProps } from "../../../src/components/views/about-view";
import type { ActivitiesViewProps } from "../../../src/components/views/activities-view";
import type { ContactViewProps } from "../../../src/components/views/contact-view";
import type { EnquiryResultViewProps } from "../../../src/components/views/enquiry-result-view";
import type { HomeViewProps } from "../../../src/components/views/home-view";
import type { NotFoundViewProps } from "../../../src/components/views/not-found-view";
import type { ServiceCardData, ServicesIndexViewProps } from "../../../src/components/views/services-index-view";
import type { WhyCyrusViewProps } from "../../../src/components/views/why-cyrus-view";
import type { ServiceViewProps } from "../../../src/components/views/service-view";
import type { CarouselLabels, GalleryItem, ImageWithAlt, ServiceSection } from "../../../src/types/content";
import { servicePath } from "../../../src/utils/routes";
import type { IGatsbyImageData } from "gatsby-plugin-image";
import { PLACES, type Place } from "./images";
import type { SiteContact } from "../../../src/components/sections/types";

export type Data = Record<string, unknown>;

/** An image path of a file's field, as the picture the view shows at that place. */
export type ImageOf = (path: string, place: Place) => IGatsbyImageData;

/** What a preview knows besides its own entry: the site's details, the other collections' entries. */
export interface Context {
  image: ImageOf;
  site?: Data;
  services?: readonly Data[];
  approvals?: readonly Data[];
  /** The image of another collection's entry (a service's card, an approval's badge). */
  imageIn?: (collection: string, path: string, place: Place) => IGatsbyImageData;
  contact?: Data;
}

export const str = (value: unknown): string =>
  typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);
export const strs = (value: unknown): string[] => (Array.isArray(value) ? value.map(str).filter(Boolean) : []);
export const obj = (value: unknown): Data =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Data) : {};
export const objs = (value: unknown): Data[] => (Array.isArray(value) ? value.map(obj) : []);

const withAlt = (ctx: Context, path: unknown, alt: unknown, place: Place): ImageWithAlt => ({
  image: ctx.image(str(path), place),
  alt: str(alt),
});

export function carouselLabels(site: Data | undefined): CarouselLabels {
  const labels = obj(site?.labels);
  return { pause: str(labels.carouselPause), play: str(labels.carouselPlay), slideOf: str(labels.slideOf) };
}

export function homeProps(data: Data, ctx: Context): HomeViewProps {
  const intro = obj(data.intro);
  const founder = obj(data.founder);
  return {
    heading: str(data.heading),
    carouselLabel: str(data.carouselLabel),
    carouselLabels: carouselLabels(ctx.site),
    slides: objs(data.slides).map((s) => withAlt(ctx, s.image, s.alt, PLACES.slide)),
    intro: { heading: str(intro.heading), paragraphs: strs(intro.paragraphs) },
    founder: {
      heading: str(founder.heading),
      paragraphs: strs(founder.paragraphs),
      industriesIntro: str(founder.industriesIntro),
      industries: strs(founder.industries),
      closing: strs(founder.closing),
      signature: str(founder.signature),
    },
  };
}

const headedText = (value: unknown) => ({ heading: str(obj(value).heading), text: str(obj(value).text) });

export function aboutProps(data: Data, ctx: Context): AboutViewProps {
  const overview = obj(data.overview);
  return {
    heading: str(data.heading),
    banner: withAlt(ctx, data.banner, data.bannerAlt, PLACES.banner),
    intro: strs(data.intro),
    mission: headedText(data.mission),
    vision: headedText(data.vision),
    overview: {
      heading: str(overview.heading),
      paragraphs: strs(overview.paragraphs),
      itemsHeading: str(overview.itemsHeading),
      items: strs(overview.items),
    },
  };
}

export function whyCyrusProps(data: Data): WhyCyrusViewProps {
  return {
    heading: str(data.heading),
    intro: strs(data.intro),
    cards: objs(data.cards).map((c) => ({ title: str(c.title), description: str(c.description) })),
  };
}

/** The services in the order of their cards on /services. */
export function byOrder(services: readonly Data[]): Data[] {
  return [...services].sort((a, b) => Number(a.order ?? 0) - Number(b.order ?? 0));
}

export function servicesIndexProps(data: Data, ctx: Context): ServicesIndexViewProps {
  const cards: ServiceCardData[] = byOrder(ctx.services ?? []).map((s) => ({
    title: str(s.cardTitle),
    to: servicePath(str(s.slug)),
    image: {
      image: ctx.imageIn ? ctx.imageIn("services", str(s.cardImage), PLACES.card) : ctx.image("", PLACES.card),
      alt: str(s.cardImageAlt),
    },
  }));
  return {
    heading: str(data.heading),
    banner: withAlt(ctx, data.banner, data.bannerAlt, PLACES.banner),
    intro: strs(data.intro),
    offeringsHeading: str(data.offeringsHeading),
    columns: objs(data.columns).map((c) => ({ items: strs(c.items) })),
    gridHeading: str(data.gridHeading),
    cards,
  };
}

export function activitiesProps(data: Data, ctx: Context): ActivitiesViewProps {
  return {
    heading: str(data.heading),
    banner: withAlt(ctx, data.banner, data.bannerAlt, PLACES.banner),
    intro: strs(data.intro),
    sections: objs(data.sections).map((s) => ({
      heading: str(s.heading),
      items: strs(s.items),
      image: withAlt(ctx, s.image, s.alt, PLACES.activity),
    })),
  };
}

/** The company's details from site.yaml, as the contact page and the contact strip show them. */
export function siteContact(siteData: Data | undefined): SiteContact & { website: string } {
  const site = obj(siteData);
  const address = obj(site.address);
  const labels = obj(site.labels);
  return {
    companyName: str(site.legalName),
    address: {
      streetAddress: str(address.streetAddress),
      locality: str(address.locality),
      city: str(address.city),
      region: str(address.region),
      postalCode: str(address.postalCode),
      country: str(address.country),
      countryCode: str(address.countryCode),
    },
    mobile: str(site.mobile),
    telephone: str(site.telephone),
    email: str(site.email),
    website: str(site.website),
    labels: {
      addressHeading: str(labels.addressHeading),
      mobile: str(labels.mobile),
      telephone: str(labels.telephone),
      email: str(labels.email),
      website: str(labels.website),
    },
  };
}

export function contactProps(data: Data, ctx: Context): ContactViewProps {
  const form = obj(data.form);
  const map = obj(data.map);
  const region = obj(data.region);
  return {
    heading: str(data.heading),
    banner: withAlt(ctx, data.banner, data.bannerAlt, PLACES.banner),
    ...siteContact(ctx.site),
    slogan: str(data.slogan),
    detailsHeading: str(data.detailsHeading),
    formHeading: str(data.formHeading),
    formNotice: str(data.formNotice),
    form: {
      nameLabel: str(form.nameLabel),
      phoneLabel: str(form.phoneLabel),
      phoneHint: str(form.phoneHint),
      emailLabel: str(form.emailLabel),
      messageLabel: str(form.messageLabel),
      honeypotLabel: str(form.honeypotLabel),
      submit: str(form.submit),
      sending: str(form.sending),
      requiredMessage: str(form.requiredMessage),
      successMessage: str(form.successMessage),
      errorMessage: str(form.errorMessage),
    },
    map: { title: str(map.title), src: str(map.src), linkLabel: str(map.linkLabel), link: str(map.link) },
    region: {
      heading: str(region.heading),
      carouselLabel: str(region.carouselLabel),
      slides: objs(region.slides).map((s) => withAlt(ctx, s.image, s.alt, PLACES.slide)),
    },
    carouselLabels: carouselLabels(ctx.site),
  };
}

export function notFoundProps(data: Data): NotFoundViewProps {
  return {
    heading: str(data.heading),
    text: str(data.text),
    links: objs(data.links).map((l) => ({ label: str(l.label), to: str(l.to) })),
  };
}

/** The three pages after the form is posted without JavaScript, each with the form's own message. */
export function enquiryResultProps(data: Data, ctx: Context): EnquiryResultViewProps[] {
  const form = obj(ctx.contact?.form);
  const messages = { sent: form.successMessage, error: form.errorMessage, incomplete: form.requiredMessage };
  return (["sent", "error", "incomplete"] as const).map((outcome) => ({
    outcome,
    heading: str(data.heading),
    message: str(messages[outcome]),
    backLink: str(data.backLink),
  }));
}

/** The approvals a gallery names, in its order; `live` is the approval being edited, as typed. */
export function galleryItems(keys: readonly string[], ctx: Context, live?: Data): GalleryItem[] {
  const approvals = ctx.approvals ?? [];
  return keys.flatMap((key) => {
    const approval = live && str(live.key) === key ? live : approvals.find((a) => str(a.key) === key);
    if (!approval) return [];
    const image =
      live === approval ? ctx.image(str(approval.image), PLACES.badge) : imageIn(ctx, "approvals", approval);
    return [{ caption: str(approval.caption), alt: str(approval.alt), image }];
  });
}

const imageIn = (ctx: Context, collection: string, approval: Data) =>
  ctx.imageIn ? ctx.imageIn(collection, str(approval.image), PLACES.badge) : ctx.image("", PLACES.badge);

function sections(value: unknown): ServiceSection[] {
  return objs(value).map((s) => ({
    heading: str(s.heading) || undefined,
    paragraphs: strs(s.paragraphs),
    items: strs(s.items),
    columns: typeof s.columns === "number" ? s.columns : undefined,
    subsections: objs(s.subsections).map((sub) => ({
      heading: str(sub.heading),
      paragraphs: strs(sub.paragraphs),
      items: strs(sub.items),
    })),
  }));
}

export function serviceProps(data: Data, ctx: Context): ServiceViewProps {
  return {
    service: {
      slug: str(data.slug),
      title: str(data.title),
      banner: withAlt(ctx, data.banner, data.bannerAlt, PLACES.banner),
      intro: strs(data.intro),
      sections: sections(data.sections),
      gallery: galleryItems(strs(data.gallery), ctx),
    },
    backLabel: str(obj(ctx.site?.labels).back),
  };
}

/**
 * An approval as the page shows it: in the gallery of the first service that names it, among the
 * others in that gallery's order (its own entry as typed); alone when no service names it yet.
 */
export function approvalGallery(data: Data, ctx: Context): GalleryItem[] {
  const key = str(data.key);
  const service = byOrder(ctx.services ?? []).find((s) => strs(s.gallery).includes(key));
  return galleryItems(service ? strs(service.gallery) : [key], ctx, data);
}
