import { graphql } from "gatsby";

/**
 * Field selections that several queries repeat. Gatsby finds fragments in any file under src/; a
 * query uses one as `address { ...PostalAddress }`. Banners and the home page's slides fill the
 * width of the window on every page.
 */
export const fragments = graphql`
  fragment PostalAddress on SiteAddress {
    streetAddress
    locality
    city
    region
    postalCode
    country
    countryCode
  }

  fragment FullWidthImage on File {
    childImageSharp {
      gatsbyImageData(layout: FULL_WIDTH, sizes: "100vw")
    }
  }
`;
