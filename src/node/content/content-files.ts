/** Every content file under data/, with the JSON Schema it must satisfy (data/schemas/<schema>.schema.json). */
export const contentFiles = [
  { file: "site/site.yaml", schema: "site" },
  { file: "navigation/navigation.yaml", schema: "navigation" },
  { file: "services/services.yaml", schema: "services" },
  { file: "approvals/approvals.yaml", schema: "approvals" },
  { file: "home/home.yaml", schema: "home" },
  { file: "about/about.yaml", schema: "about" },
  { file: "services-page/services-page.yaml", schema: "services-page" },
  { file: "activities/activities.yaml", schema: "activities" },
  { file: "why-cyrus/why-cyrus.yaml", schema: "why-cyrus" },
  { file: "contact/contact.yaml", schema: "contact" },
  { file: "not-found/not-found.yaml", schema: "not-found" },
  { file: "enquiry-results/enquiry-results.yaml", schema: "enquiry-results" },
] as const;

export type ContentFile = (typeof contentFiles)[number]["file"];
