// ESLint (flat config): JavaScript's and typescript-eslint's recommended rules everywhere, React,
// the rules of hooks and jsx-a11y on the components, and nothing that Prettier decides (layout).
// `npm run lint` runs it with --max-warnings 0, then `prettier --check`.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// The site's service (enquiries, the studio's sign-in, the push hook) is used through its public
// entry only, src/site-service/index.ts: what is behind it can be rearranged without touching the
// Gatsby Function, the site, the release or the deploy tests.
const serviceInternals = {
  regex: "(^|/)site-service/(?!index$|function-entry$)",
  message:
    "Import the site's service from its public entry (src/site-service, index.ts) only (the Gatsby Function: function-entry.ts).",
};
// The enquiry's definition runs in visitors' browsers as well as in the receiver: data and types only.
const notForTheContract = {
  regex: "^(node:|gatsby|react)|^\\.\\./",
  message:
    "src/enquiry-contract is shared by the browser's form and the receiver: no Node, Gatsby or React, and nothing outside it.",
};
// The service runs in plain Node too (the standalone service, the CLI): free of Gatsby, React and the form.
const notForTheService = {
  regex: "^(gatsby|react)|/components/",
  message: "src/site-service runs without Gatsby: no Gatsby, React or component imports.",
};

export default tseslint.config(
  {
    ignores: [
      "public/",
      ".fixture-site/",
      ".cache/",
      ".check-cache/",
      "node_modules/",
      "src/gatsby-types.d.ts",
      "bench/",
      "test-results/",
      "screenshots/",
      "var/",
      "admin/dist/",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_` marks an argument a signature requires but the function does not use.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
    },
  },
  {
    files: ["**/*.tsx", "src/**/*.ts"],
    ...react.configs.flat.recommended,
    ...react.configs.flat["jsx-runtime"],
    languageOptions: {
      ...react.configs.flat.recommended.languageOptions,
      globals: { ...globals.browser, ...globals.node },
    },
    settings: { react: { version: "18.3" } },
  },
  reactHooks.configs.flat["recommended-latest"],
  jsxA11y.flatConfigs.recommended,
  {
    files: ["__tests__/**", "plugins/*/__tests__/**"],
    languageOptions: { globals: { ...globals.jest, ...globals.browser } },
  },
  {
    // The service's own tests reach into it on purpose, one module at a time.
    files: ["**/*.{ts,tsx,js,mjs}"],
    ignores: ["src/site-service/**", "__tests__/site-service/**", "__tests__/enquiry-contract/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [serviceInternals] }] },
  },
  {
    files: ["src/enquiry-contract/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [serviceInternals, notForTheContract] }] },
  },
  {
    files: ["src/site-service/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [notForTheService] }] },
  },
  {
    // Playwright fixtures are functions of ({ fixtures }, use): neither React hooks nor a mistake.
    files: ["__tests__/e2e/**", "__tests__/deploy/browser/**", "__tests__/admin/browser/**"],
    rules: {
      "react-hooks/rules-of-hooks": "off",
      "no-empty-pattern": ["error", { allowObjectPatternsAsParameters: true }],
    },
  },
  prettier,
);
