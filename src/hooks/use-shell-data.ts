import { graphql, useStaticQuery } from "gatsby";
import type { ShellData } from "../types/content";
import { imageOf } from "../utils/images";
import { servicePath } from "../utils/routes";

/** The header, navigation, footer and floating buttons of every page, from data/site and data/navigation. */
export function useShellData(): ShellData {
  const { siteYaml, navigationYaml } = useStaticQuery<Queries.ShellDataQuery>(graphql`
    query ShellData {
      siteYaml {
        name
        legalName
        tagline
        logo {
          childImageSharp {
            gatsbyImageData(layout: FIXED, width: 48, height: 48, placeholder: NONE)
          }
        }
        logoAlt
        foundingYear
        address {
          ...PostalAddress
        }
        mobile
        telephone
        email
        website
        social {
          name
          url
        }
        messaging {
          number
          greeting
          label
        }
        labels {
          skipLink
          homeLink
          mainNav
          menuOpen
          menuClose
          servicesToggle
          scrollTop
          followUs
          addressHeading
          contactHeading
          mobile
          telephone
          email
          website
          back
          carouselPause
          carouselPlay
          slideOf
          redirectNotice
          copyright
        }
      }
      navigationYaml {
        main {
          label
          to
          dropdown
        }
        servicesMenu {
          slug
          menuLabel
        }
      }
    }
  `);
  if (!siteYaml || !navigationYaml)
    throw new Error("data/site/site.yaml or data/navigation/navigation.yaml is missing");
  return {
    site: { ...siteYaml, logo: imageOf(siteYaml.logo, "data/site/site.yaml logo") },
    nav: [...navigationYaml.main],
    servicesMenu: navigationYaml.servicesMenu.map((s) => ({ label: s.menuLabel, to: servicePath(s.slug) })),
  };
}
