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

export default tseslint.config(
  {
    ignores: [
      "public/",
      ".cache/",
      "node_modules/",
      "src/gatsby-types.d.ts",
      "bench/",
      "test-results/",
      "screenshots/",
      "var/",
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
    // Playwright fixtures are functions of ({ fixtures }, use): neither React hooks nor a mistake.
    files: ["__tests__/e2e/**", "__tests__/deploy/browser/**"],
    rules: {
      "react-hooks/rules-of-hooks": "off",
      "no-empty-pattern": ["error", { allowObjectPatternsAsParameters: true }],
    },
  },
  prettier,
);
