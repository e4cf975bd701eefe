import type { GatsbyNode } from "gatsby";

/*
 * Every YAML type is declared, never inferred: a missing required field fails the query with the
 * field's name, and `File! @fileByRelativePath` fails the build on a wrong image path. Type names
 * follow gatsby-transformer-yaml: an array file is named after the file (services.yaml ->
 * ServicesYaml), an object file after its folder (site/site.yaml -> SiteYaml).
 */
export const typeDefs = /* GraphQL */ `
  type SiteYaml implements Node @dontInfer {
    name: String!
    legalName: String!
    tagline: String!
    logo: File! @fileByRelativePath
    logoAlt: String!
    foundingYear: Int!
    description: String!
    shareImage: File! @fileByRelativePath
    shareImageAlt: String!
    address: SiteAddress!
    mobile: String!
    telephone: String!
    email: String!
    website: String!
    social: [SocialLink!]!
    messaging: Messaging!
    labels: SiteLabels!
  }
  type SiteAddress {
    streetAddress: String!
    locality: String!
    city: String!
    region: String!
    postalCode: String!
    country: String!
    countryCode: String!
  }
  type SocialLink {
    name: String!
    url: String!
  }
  type Messaging {
    number: String!
    greeting: String!
    label: String!
  }
  type SiteLabels {
    skipLink: String!
    homeLink: String!
    mainNav: String!
    menuOpen: String!
    menuClose: String!
    servicesToggle: String!
    scrollTop: String!
    followUs: String!
    addressHeading: String!
    contactHeading: String!
    mobile: String!
    telephone: String!
    email: String!
    website: String!
    back: String!
    carouselPause: String!
    carouselPlay: String!
    slideOf: String!
    redirectNotice: String!
    copyright: String!
  }

  type NavigationYaml implements Node @dontInfer {
    main: [NavItem!]!
    servicesMenu: [ServicesYaml!]! @link(by: "slug")
  }
  type NavItem {
    label: String!
    to: String!
    dropdown: Boolean
  }
  type PageLink {
    label: String!
    to: String!
  }

  type ServicesYaml implements Node @dontInfer {
    slug: String!
    menuLabel: String!
    cardTitle: String!
    title: String!
    metaTitle: String!
    description: String!
    banner: File! @fileByRelativePath
    bannerAlt: String!
    cardImage: File! @fileByRelativePath
    cardImageAlt: String!
    intro: [String!]!
    sections: [ServiceSection!]
    gallery: [ApprovalsYaml!] @link(by: "key")
  }
  type ServiceSection {
    heading: String
    paragraphs: [String!]
    items: [String!]
    columns: Int
    subsections: [ServiceSubsection!]
  }
  type ServiceSubsection {
    heading: String!
    paragraphs: [String!]
    items: [String!]
  }

  type ApprovalsYaml implements Node @dontInfer {
    key: String!
    caption: String!
    image: File! @fileByRelativePath
    alt: String!
  }

  type Slide {
    image: File! @fileByRelativePath
    alt: String!
  }
  type TextBlock {
    heading: String!
    paragraphs: [String!]!
  }
  type HeadedText {
    heading: String!
    text: String!
  }

  type HomeYaml implements Node @dontInfer {
    title: String!
    description: String!
    heading: String!
    carouselLabel: String!
    slides: [Slide!]!
    intro: TextBlock!
    founder: FounderMessage!
  }
  type FounderMessage {
    heading: String!
    paragraphs: [String!]!
    industriesIntro: String!
    industries: [String!]!
    closing: [String!]!
    signature: String!
  }

  type AboutYaml implements Node @dontInfer {
    title: String!
    description: String!
    heading: String!
    banner: File! @fileByRelativePath
    bannerAlt: String!
    intro: [String!]!
    mission: HeadedText!
    vision: HeadedText!
    overview: AboutOverview!
  }
  type AboutOverview {
    heading: String!
    paragraphs: [String!]!
    itemsHeading: String!
    items: [String!]!
  }

  type ServicesPageYaml implements Node @dontInfer {
    title: String!
    description: String!
    heading: String!
    banner: File! @fileByRelativePath
    bannerAlt: String!
    intro: [String!]!
    offeringsHeading: String!
    columns: [BulletColumn!]!
    gridHeading: String!
  }
  type BulletColumn {
    items: [String!]!
  }

  type ActivitiesYaml implements Node @dontInfer {
    title: String!
    description: String!
    heading: String!
    banner: File! @fileByRelativePath
    bannerAlt: String!
    intro: [String!]!
    sections: [ActivitySection!]!
  }
  type ActivitySection {
    heading: String!
    items: [String!]!
    image: File! @fileByRelativePath
    alt: String!
  }

  type WhyCyrusYaml implements Node @dontInfer {
    title: String!
    description: String!
    heading: String!
    intro: [String!]!
    cards: [WhyCard!]!
  }
  type WhyCard {
    title: String!
    description: String!
  }

  type ContactYaml implements Node @dontInfer {
    title: String!
    description: String!
    heading: String!
    banner: File! @fileByRelativePath
    bannerAlt: String!
    slogan: String!
    detailsHeading: String!
    formHeading: String!
    formNotice: String!
    form: ContactForm!
    map: ContactMap!
    region: ContactRegion!
  }
  type ContactForm {
    nameLabel: String!
    phoneLabel: String!
    phoneHint: String!
    emailLabel: String!
    messageLabel: String!
    submit: String!
    sending: String!
    requiredMessage: String!
    successMessage: String!
    errorMessage: String!
  }
  type ContactMap {
    title: String!
    src: String!
    linkLabel: String!
    link: String!
  }
  type ContactRegion {
    heading: String!
    carouselLabel: String!
    slides: [Slide!]!
  }

  type EnquiryResultsYaml implements Node @dontInfer {
    heading: String!
    backLink: String!
    sent: EnquiryResultPage!
    error: EnquiryResultPage!
    incomplete: EnquiryResultPage!
  }
  type EnquiryResultPage {
    title: String!
    description: String!
  }

  type NotFoundYaml implements Node @dontInfer {
    title: String!
    description: String!
    heading: String!
    text: String!
    links: [PageLink!]!
  }
`;

export const createSchemaCustomization: GatsbyNode["createSchemaCustomization"] = ({ actions }) => {
  actions.createTypes(typeDefs);
};
