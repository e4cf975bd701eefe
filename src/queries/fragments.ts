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

  # The company's details and the carousel's wording, for a page that shows both (contact, added pages).
  fragment ContactDetailsAndCarousel on SiteYaml {
    legalName
    address {
      ...PostalAddress
    }
    mobile
    telephone
    email
    website
    labels {
      addressHeading
      mobile
      telephone
      email
      website
      carouselPause
      carouselPlay
      slideOf
    }
  }

  fragment FullWidthImage on File {
    childImageSharp {
      gatsbyImageData(layout: FULL_WIDTH, sizes: "100vw")
    }
  }
`;
