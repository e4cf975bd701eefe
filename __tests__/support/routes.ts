/** The route table of ../shared/spec/site-spec.md, in its order, as exact paths. */
export const specRoutes: readonly string[] = [
  "home", "aboutus", "services", "services/study-design", "services/clinical-trial-management",
  "services/clinical-trial-monitoring", "services/quality-assurance", "services/artificial-intelligence",
  "services/regulatory-affairs", "services/cdms", "services/scientific-affairs", "services/data-management",
  "services/medical-devices", "services/project-management", "services/therapeutic-areas", "services/phases",
  "services/outsourced-clinical-trials", "services/pharmacovigilance", "services/clinical-operations",
  "services/training-certification", "services/committees", "contact", "activities", "whycyrus",
  "services/regulatory-approvals",
].map((route) => `/${route}`);
