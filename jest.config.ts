/**
 * Jest: one shared base, and a project per kind of test (the folder under __tests__/ names what it
 * tests). `npm test` runs unit and enquiry; `npm run test:site` and `npm run test:deploy` need a build.
 */
import type { Config } from "jest";

type Project = NonNullable<Config["projects"]>[number] & object;

const base = {
  testEnvironment: "node",
  setupFilesAfterEnv: ["<rootDir>/__tests__/support/setup.ts"],
  transform: {
    "^.+\\.[jt]sx?$": [
      "babel-jest",
      {
        presets: [
          ["@babel/preset-env", { targets: { node: "current" } }],
          ["@babel/preset-react", { runtime: "automatic" }],
          "@babel/preset-typescript",
        ],
      },
    ],
  },
  moduleNameMapper: {
    "\\.css$": "identity-obj-proxy",
    "^gatsby$": "<rootDir>/__tests__/support/gatsby-mock.tsx",
  },
  transformIgnorePatterns: ["node_modules/(?!(gatsby|gatsby-script|gatsby-plugin-image)/)"],
  globals: { __PATH_PREFIX__: "" },
} satisfies Project;

const project = (displayName: string, folders: string[], extra: Project = {}): Project => ({
  ...base,
  displayName,
  testMatch: folders.map((folder) => `<rootDir>/__tests__/${folder}/**/*.test.ts?(x)`),
  ...extra,
});

const config: Config = {
  projects: [
    // Components and views in jsdom; build-time code, scripts and tools say @jest-environment node.
    project(
      "unit",
      ["components", "views", "node", "scripts", "tools", "performance-plugin", "content-plugin", "admin"],
      {
        testEnvironment: "jsdom",
      },
    ),
    // The enquiry's definition, and the receiver (src/enquiry-receiver) over real HTTP on loopback.
    project("enquiry", ["enquiry-contract", "enquiry-receiver"]),
    // The built site in public/, served by gatsby serve.
    project("site", ["site"]),
    // nginx and the standalone enquiry service (deploy/).
    project("deploy", ["deploy"]),
  ],
};

export default config;
