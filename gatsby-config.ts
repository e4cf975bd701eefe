import path from "node:path";
import type { GatsbyConfig } from "gatsby";

// The canonical origin of the published site; every absolute URL (canonical, sitemap, share image) uses it.
const siteUrl = (process.env.SITE_URL ?? "https://www.example.com").replace(/\/+$/, "");

const config: GatsbyConfig = {
  siteMetadata: {
    title: "cyrus-website",
    siteUrl,
  },
  // The spec's routes have no trailing slash (/home, /services/study-design).
  trailingSlash: "never",
  jsxRuntime: "automatic",
  graphqlTypegen: {
    typesOutputPath: "src/gatsby-types.d.ts",
    generateOnBuild: true,
  },
  plugins: [
    "gatsby-plugin-image",
    {
      resolve: "gatsby-plugin-sharp",
      options: {
        defaults: {
          formats: ["auto", "webp", "avif"],
          placeholder: "blurred",
          quality: 70,
          breakpoints: [480, 768, 1080, 1440, 1920],
        },
      },
    },
    "gatsby-transformer-sharp",
    {
      resolve: "gatsby-source-filesystem",
      options: {
        name: "data",
        path: path.resolve(__dirname, "data"),
        // JSON Schemas are for the validator and editors' tooling, not content.
        ignore: ["**/schemas/**"],
      },
    },
    "gatsby-transformer-yaml",
  ],
};

export default config;
