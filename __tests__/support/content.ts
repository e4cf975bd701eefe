/**
 * Test data from the REAL content files under data/, so tests fail when an editor's change breaks
 * what the shell shows. Images become fake IGatsbyImageData (no sharp in unit tests).
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "yaml";
import type { IGatsbyImageData } from "gatsby-plugin-image";
import type { MenuEntry, NavItem, ShellData, SiteIdentity } from "../../src/types/content";
import { servicePath } from "../../src/utils/routes";

const root = path.resolve(__dirname, "../..");

/** Parses a YAML file, path relative to the project root, e.g. "data/site/site.yaml". */
export function loadYaml<T = unknown>(relPath: string): T {
  return parse(fs.readFileSync(path.join(root, relPath), "utf8")) as T;
}

/** A valid constrained image of the given intrinsic size; `name` makes its src distinct. */
export function fakeImage(width: number, height: number, name = "image"): IGatsbyImageData {
  const src = `/static/${name}-${width}x${height}.jpg`;
  return {
    layout: "constrained",
    width,
    height,
    images: {
      fallback: {
        src,
        srcSet: `${src} ${width}w`,
        sizes: `(min-width: ${width}px) ${width}px, 100vw`,
      },
      sources: [],
    },
  };
}

type SiteYaml = Omit<SiteIdentity, "logo"> & { logo: string };
interface NavigationYaml {
  main: NavItem[];
  servicesMenu: string[];
}
interface ServiceYaml {
  slug: string;
  menuLabel: string;
}

/** ShellData as the Layout query builds it: site identity, main nav and the Services dropdown. */
export function loadShellData(): ShellData {
  const site = loadYaml<SiteYaml>("data/site/site.yaml");
  const navigation = loadYaml<NavigationYaml>("data/navigation/navigation.yaml");
  const services = loadYaml<ServiceYaml[]>("data/services/services.yaml");
  const servicesMenu: MenuEntry[] = navigation.servicesMenu.map((slug) => {
    const service = services.find((s) => s.slug === slug);
    if (!service) throw new Error(`navigation.yaml servicesMenu: unknown service slug "${slug}"`);
    return { label: service.menuLabel, to: servicePath(slug) };
  });
  return {
    site: { ...site, logo: fakeImage(48, 48, "logo") },
    nav: navigation.main,
    servicesMenu,
  };
}
