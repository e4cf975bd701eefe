/**
 * What the plugin assumes about Gatsby beyond their documented APIs, and the error that
 * stops the build when one of those assumptions no longer holds. README.md ("Gatsby and webpack
 * internals") describes each one: where Gatsby defines it, what the plugin does with it, and how the
 * build fails. A unit test checks that the README names every entry below.
 */

export const PLUGIN = "gatsby-plugin-cyrus-performance";
/** The Gatsby version whose sources the internals below were read from. */
export const GATSBY_CHECKED = "5.16.1";

export interface Internal {
  /** The heading of its entry in README.md. */
  name: string;
  /** What to do when it changed. */
  fix: string;
}

const adapt = (module: string) =>
  `Read how the installed Gatsby does it now, adapt ${module} of the plugin (and its README entry), or take the plugin out of gatsby-config.ts to build without this optimisation.`;

export const INTERNALS = {
  postBodyScripts: {
    name: "Gatsby's scripts after the body, in `onPreRenderHTML`",
    fix: adapt("src/script-free.ts (and src/islands-only.ts, which checks the built pages)"),
  },
  browserBundles: {
    name: "Gatsby's browser bundles in public/, removed after the build",
    fix: adapt("src/unused-bundles.ts, where Gatsby now writes them"),
  },
} satisfies Record<string, Internal>;

/**
 * An assumption the plugin's work rests on does not hold in this build. src/post-build.ts
 * turns it into `reporter.panicOnBuild`: the build stops instead of publishing a site without the
 * optimisation, or a broken one.
 */
export class BrokenAssumption extends Error {
  override name = "BrokenAssumption";

  constructor(
    readonly subject: string,
    found: string,
    fix: string,
  ) {
    super(`${PLUGIN}: ${subject}: ${found}. ${fix} (plugins/${PLUGIN}/README.md explains each assumption.)`);
  }
}

/** The build stops: a Gatsby or webpack internal is not as Gatsby 5.16.1 had it. */
export function internalChanged(internal: Internal, found: string): BrokenAssumption {
  return new BrokenAssumption(
    `${internal.name} (checked on Gatsby ${GATSBY_CHECKED}) has changed`,
    found,
    internal.fix,
  );
}

/**
 * Runs a step of the plugin; a broken assumption stops the build through `reporter.panicOnBuild`
 * (which exits in `gatsby build`) and the step's result is then undefined. Other errors propagate.
 */
export function stopOnBrokenAssumption<T>(
  reporter: { panicOnBuild(message: string): unknown },
  step: () => T,
): T | undefined {
  try {
    return step();
  } catch (error) {
    if (!(error instanceof BrokenAssumption)) throw error;
    reporter.panicOnBuild(error.message);
    return undefined;
  }
}
