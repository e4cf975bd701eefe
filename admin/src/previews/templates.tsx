/**
 * The studio's previews: each kind of page rendered by the site's own view component with the site's
 * CSS (studio.css, given to the preview frame), from the entry as the editor types it.
 */
import { Map as ImmutableMap } from "immutable";
import { useEffect, useState, type ComponentType } from "react";
import { AboutView } from "../../../src/components/views/about-view";
import { ActivitiesView } from "../../../src/components/views/activities-view";
import { ContactView } from "../../../src/components/views/contact-view";
import { EnquiryResultView } from "../../../src/components/views/enquiry-result-view";
import { HomeView } from "../../../src/components/views/home-view";
import { NotFoundView } from "../../../src/components/views/not-found-view";
import { ServicesIndexView } from "../../../src/components/views/services-index-view";
import { WhyCyrusView } from "../../../src/components/views/why-cyrus-view";
import { Gallery, ServiceView } from "../../../src/components/views/service-view";
import { Container } from "../../../src/components/content/page";
import { Shell } from "../../../src/components/shell/shell";
import { AddedPageView } from "../../../src/components/views/added-page-view";
import { addedPageProps } from "./added-page-props";
import { PLACES, previewImage, type Place } from "./images";
import * as map from "./props";
import { shellProps } from "./shell-props";
import { missingEntry } from "../entry-users";
import type { Context, Data } from "./props";

/** The part of an Immutable.js Map the previews read. */
interface Immutable {
  get(key: string): unknown;
  toJS(): unknown;
}

interface Asset {
  toString(): string;
}

/** What Decap gives a preview template (decap-cms-core's EditorPreviewPane). */
export interface PreviewProps {
  entry: Immutable;
  getAsset: (path: string) => Asset | undefined;
  getCollection: (collection: string, slug?: string) => Promise<Immutable | Immutable[] | { toArray(): Immutable[] }>;
  /** Decap's asset loader for another collection's entry (not a documented prop: used when present). */
  boundGetAsset?: (collection: unknown, entry: unknown) => (path: string) => Asset | undefined;
  state?: { collections?: Immutable };
}

/**
 * The entry given to Decap's loader for another collection's images. Decap keeps one loader per entry
 * in a WeakMap, so it must be an object (undefined throws and the preview shows Decap's error page);
 * which one does not matter, since every collection's media folder is absolute (cms-config.ts).
 */
const ANY_ENTRY = ImmutableMap();

const dataOf = (value: unknown): Data => map.obj((value as Immutable | undefined)?.toJS?.() ?? value);

/** Another file's data (site.yaml, contact.yaml), loaded once from the working copy or the repository. */
function useFile(props: PreviewProps, collection: string, slug: string, wanted = true): Data | undefined {
  const [data, setData] = useState<Data>();
  const { getCollection } = props;
  useEffect(() => {
    if (!wanted) return undefined;
    let live = true;
    getCollection(collection, slug).then(
      (entry) => live && setData(dataOf((entry as Immutable).get("data"))),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [getCollection, collection, slug, wanted]);
  return data;
}

/** Every entry of a collection (the services, the approvals). */
function useEntries(props: PreviewProps, collection: string, wanted = true): Data[] | undefined {
  const [entries, setEntries] = useState<Data[]>();
  const { getCollection } = props;
  useEffect(() => {
    if (!wanted) return undefined;
    let live = true;
    getCollection(collection).then(
      (result) => {
        const list = Array.isArray(result) ? result : (result as { toArray(): Immutable[] }).toArray();
        if (live) setEntries(list.map((entry) => dataOf(entry.get("data"))));
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [getCollection, collection, wanted]);
  return entries;
}

function useContext(
  props: PreviewProps,
  needs: { site?: boolean; services?: boolean; approvals?: boolean; contact?: boolean },
): Context {
  const site = useFile(props, "site", "site", needs.site);
  const contact = useFile(props, "pages", "contact", needs.contact);
  const services = useEntries(props, "services", needs.services);
  const approvals = useEntries(props, "approvals", needs.approvals);
  const image = (path: string, place: Place) => previewImage(path ? String(props.getAsset(path) ?? "") : "", place);
  const imageIn = (collection: string, path: string, place: Place) => {
    const target = props.state?.collections?.get(collection);
    const load = target && props.boundGetAsset ? props.boundGetAsset(target, ANY_ENTRY) : undefined;
    return previewImage(path && load ? String(load(path) ?? "") : "", place);
  };
  return { image, imageIn, site, contact, services, approvals };
}

const useData = (props: PreviewProps): Data => dataOf(props.entry.get("data"));

function HomePreview(props: PreviewProps) {
  return <HomeView {...map.homeProps(useData(props), useContext(props, { site: true }))} />;
}

function AboutPreview(props: PreviewProps) {
  return <AboutView {...map.aboutProps(useData(props), useContext(props, {}))} />;
}

function WhyCyrusPreview(props: PreviewProps) {
  return <WhyCyrusView {...map.whyCyrusProps(useData(props))} />;
}

function ServicesIndexPreview(props: PreviewProps) {
  return <ServicesIndexView {...map.servicesIndexProps(useData(props), useContext(props, { services: true }))} />;
}

function ActivitiesPreview(props: PreviewProps) {
  return <ActivitiesView {...map.activitiesProps(useData(props), useContext(props, {}))} />;
}

/** The studio never sends an enquiry: its preview of the form is inert, and says so. */
export const FORM_PREVIEW_NOTE =
  "Preview: this form sends nothing from the studio. Visitors send their enquiries from the published Contact page.";

function ContactPreview(props: PreviewProps) {
  return (
    <ContactView
      {...map.contactProps(useData(props), useContext(props, { site: true }))}
      formPreviewNote={FORM_PREVIEW_NOTE}
    />
  );
}

function NotFoundPreview(props: PreviewProps) {
  return <NotFoundView {...map.notFoundProps(useData(props))} />;
}

function EnquiryResultsPreview(props: PreviewProps) {
  const pages = map.enquiryResultProps(useData(props), useContext(props, { contact: true }));
  return (
    <>
      {pages.map((page) => (
        <EnquiryResultView key={page.outcome} {...page} />
      ))}
    </>
  );
}

function ServicePreview(props: PreviewProps) {
  return <ServiceView {...map.serviceProps(useData(props), useContext(props, { site: true, approvals: true }))} />;
}

/** An added page, with its sections' real components (a page still being written too). */
function AddedPagePreview(props: PreviewProps) {
  return <AddedPageView {...addedPageProps(useData(props), useContext(props, { site: true }))} />;
}

function ApprovalPreview(props: PreviewProps) {
  const items = map.approvalGallery(useData(props), useContext(props, { services: true, approvals: true }));
  return (
    <Container>
      <Gallery items={items} />
    </Container>
  );
}

/** What the Site identity and Navigation previews show between the header and the footer. */
export const SHELL_PREVIEW_NOTE = "Each page's own content comes here, between the header and the footer.";

/** The entry whose media folder holds the logo (site.yaml's), for Decap's loader of that collection's images. */
const SITE_ENTRY = ImmutableMap({ slug: "site" });

/**
 * site.yaml and navigation.yaml have no page of their own: they are the header, the menu and the
 * footer of every page, shown here as the site shows them (the real Shell), one of the two files as
 * typed and the other as saved.
 */
function ShellPreview({ props, site, navigation }: { props: PreviewProps; site?: Data; navigation?: Data }) {
  const read = useEntries(props, "services");
  const services = read ?? [];
  const own = site !== undefined;
  const siteData = useFile(props, "site", "site", !own) ?? site ?? {};
  const navigationData = useFile(props, "site", "navigation", own) ?? navigation ?? {};
  const logoPath = map.str(siteData.logo);
  const target = props.state?.collections?.get("site");
  const load = !own && target && props.boundGetAsset ? props.boundGetAsset(target, SITE_ENTRY) : props.getAsset;
  const logo = previewImage(logoPath ? String(load(logoPath) ?? "") : "", PLACES.logo);
  // A menu entry naming a service whose file is gone: the same words as under its field in the form.
  const missing = read
    ? map.strs(navigationData.servicesMenu).filter((slug) => !services.some((s) => map.str(s.slug) === slug))
    : [];
  return (
    <Shell data={shellProps(siteData, navigationData, services, logo)}>
      <Container>
        {missing.map((slug) => (
          <p key={slug} role="alert">
            {missingEntry("service", slug, `data/services/${slug}.yaml`)}
          </p>
        ))}
        <p>{SHELL_PREVIEW_NOTE}</p>
      </Container>
    </Shell>
  );
}

const SitePreview = (props: PreviewProps) => <ShellPreview props={props} site={useData(props)} />;
const NavigationPreview = (props: PreviewProps) => <ShellPreview props={props} navigation={useData(props)} />;

/**
 * Preview templates by Decap's template name: a file of a file collection by its name, a folder
 * collection by the collection's.
 */
export const previewTemplates: Record<string, ComponentType<PreviewProps>> = {
  home: HomePreview,
  about: AboutPreview,
  "why-cyrus": WhyCyrusPreview,
  "services-page": ServicesIndexPreview,
  activities: ActivitiesPreview,
  contact: ContactPreview,
  "not-found": NotFoundPreview,
  "enquiry-results": EnquiryResultsPreview,
  services: ServicePreview,
  approvals: ApprovalPreview,
  "added-pages": AddedPagePreview,
  site: SitePreview,
  navigation: NavigationPreview,
};
