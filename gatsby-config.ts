import path from "node:path";
import type { GatsbyConfig } from "gatsby";
import { FORM_OUTCOMES, formResultPath } from "./src/enquiry-contract/form-results";

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
    {
      resolve: "gatsby-plugin-sharp",
      options: {
        // docs/performance.md gives the measurements behind these choices.
        defaults: {
          // No AVIF: on these images it is larger than WebP at the same quality, and encoding it
          // took most of the build. WebP, with JPEG/PNG as fallback, covers every current browser.
          formats: ["auto", "webp"],
          // A background colour: no extra image to make, nothing to inline in the HTML.
          placeholder: "dominantColor",
          quality: 70,
          // Widths of full-width images: phones at 2x (750), 3x phones and 1080p tablets (1080),
          // laptops (1366), desktops (1920).
          breakpoints: [750, 1080, 1366, 1920],
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
    // gatsby-transformer-yaml, with the content check around it: a problem in data/ stops the build
    // before anything else, and in develop the terminal and an overlay report it while the pages keep
    // their last good content (plugins/gatsby-plugin-cyrus-content/README.md).
    "gatsby-plugin-cyrus-content",
    {
      resolve: "gatsby-plugin-sitemap",
      options: {
        // "/" only forwards to /home; the 404 page and the form's result pages are not content.
        excludes: ["/", "/404", "/404.html", "/dev-404-page", ...FORM_OUTCOMES.map(formResultPath)],
      },
    },
    {
      resolve: "gatsby-plugin-robots-txt",
      options: {
        host: siteUrl,
        sitemap: `${siteUrl}/sitemap-index.xml`,
        // The editing studio is for editors only (docs/editing-studio.md).
        policy: [{ userAgent: "*", allow: "/", disallow: ["/admin"] }],
      },
    },
    {
      resolve: "gatsby-plugin-manifest",
      options: {
        name: "Cyrus",
        short_name: "Cyrus",
        description: "Clinical research organisation in Chennai, India",
        start_url: "/home",
        lang: "en",
        background_color: "#ffffff",
        theme_color: "#0f2a4a",
        display: "minimal-ui",
        // The Seo component writes the one theme-color tag.
        theme_color_in_head: false,
        icon: "data/site/images/logo.png",
        // The icons are versioned by content hash in their query string already.
        cache_busting_mode: "query",
      },
    },
    // The editing studio at /admin, built apart from the pages' bundles (docs/editing-studio.md).
    "gatsby-plugin-cyrus-admin",
    // Last: its onPostBuild precompresses public/ as the plugins above left it (see its README.md).
    "gatsby-plugin-cyrus-performance",
  ],
};

export default config;
