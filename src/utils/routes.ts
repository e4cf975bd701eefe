/** The route of a service's page (spec: /services/<slug>, no trailing slash): the one place it is built. */
export const servicePath = (slug: string): string => `/services/${slug}`;
