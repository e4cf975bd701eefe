/**
 * The site's header, menu and footer (the Shell every page has) from site.yaml and navigation.yaml
 * as the editor has them: what src/hooks/use-shell-data.ts makes of the GraphQL results. Either file
 * may be incomplete while it is typed: a text not there yet is empty, never "undefined".
 */
import type { IGatsbyImageData } from "gatsby-plugin-image";
import type { Address, Labels, ShellData } from "../../../src/types/content";
import { servicePath } from "../../../src/utils/routes";
import { obj, objs, str, strs, type Data } from "./props";

/** An object of texts (labels, the address) whose missing texts read as empty. */
const texts = <T>(value: unknown): T =>
  new Proxy(obj(value), {
    get: (target, key) => (typeof key === "string" ? str(target[key]) : undefined),
  }) as T;

export function shellProps(site: Data, navigation: Data, services: readonly Data[], logo: IGatsbyImageData): ShellData {
  // The dropdown shows each service's menu label, as the site's query does (servicesMenu -> menuLabel).
  const menuLabel = (slug: string) => str(services.find((s) => str(s.slug) === slug)?.menuLabel) || slug;
  return {
    site: {
      name: str(site.name),
      legalName: str(site.legalName),
      tagline: str(site.tagline),
      logo,
      logoAlt: str(site.logoAlt),
      foundingYear: Number(site.foundingYear ?? 0),
      address: texts<Address>(site.address),
      mobile: str(site.mobile),
      telephone: str(site.telephone),
      email: str(site.email),
      website: str(site.website),
      social: objs(site.social).map((s) => ({ name: str(s.name), url: str(s.url) })),
      messaging: texts<ShellData["site"]["messaging"]>(site.messaging),
      labels: texts<Labels>(site.labels),
    },
    nav: objs(navigation.main).map((item) => ({
      label: str(item.label),
      to: str(item.to),
      dropdown: item.dropdown === true,
    })),
    servicesMenu: strs(navigation.servicesMenu).map((slug) => ({ label: menuLabel(slug), to: servicePath(slug) })),
  };
}
