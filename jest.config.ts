/**
 * Jest: one shared base, and a project per kind of test (the folder under __tests__/ names what it
 * tests; a local plugin's tests live beside it, in plugins/<plugin>/__tests__/). `npm test` runs unit
 * and service; `npm run test:site` and `npm run test:deploy` need a build.
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
  // The fixture site is a copy of the project (package.json, plugins' tests): not this project's modules.
  modulePathIgnorePatterns: ["<rootDir>/.fixture-site/"],
} satisfies Project;

/** `folders`: a folder of __tests__/ by its name, or a path from the root (a plugin's __tests__/). */
const project = (displayName: string, folders: string[], extra: Project = {}): Project => ({
  ...base,
  displayName,
  testMatch: folders.map(
    (folder) => `<rootDir>/${folder.includes("/") ? folder : `__tests__/${folder}`}/**/*.test.ts?(x)`,
  ),
  ...extra,
});

const config: Config = {
  // How long a worker has to exit once its last file is done before Jest kills it and warns of a leak.
  // Jest's 500 ms is too little for a worker that ran half of unit and service: it holds about
  // 700 MB, and giving it back takes 150 ms on an idle 2-core machine and over 500 ms with both
  // cores busy, with no handle left open. A handle left open still gets the warning, 5 s later,
  // and CI fails on it (.ci/run).
  workerGracefulExitTimeout: 5_000,
  projects: [
    // Components and views in jsdom; build-time code, scripts, tools and plugins say @jest-environment node.
    project(
      "unit",
      [
        "components",
        "views",
        "node",
        "scripts",
        "tools",
        "content-plugin",
        "admin",
        "docs",
        "inbox",
        "plugins/*/__tests__",
      ],
      { testEnvironment: "jsdom" },
    ),
    // The enquiry's definition, and the site's service (src/site-service) over real HTTP on loopback.
    // Each accepted enquiry is a database commit synced to disk: a bound for a busy machine, not a
    // measure (200 at once took 8 s with both cores loaded).
    project("service", ["enquiry-contract", "site-service"], {
      setupFilesAfterEnv: [...base.setupFilesAfterEnv, "<rootDir>/__tests__/support/enquiry-timeout.ts"],
    }),
    // The built site in public/, served by gatsby serve.
    project("site", ["site"]),
    // nginx and the standalone enquiry service (deploy/).
    project("deploy", ["deploy"]),
  ],
};

export default config;
