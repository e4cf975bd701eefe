/**
 * The Gatsby Function (src/api/email.ts) is bundled with everything its imports reach: through the
 * service's function entry that is the receiving of an enquiry, not the inbox, its passkey library
 * or the rest of the standalone service. Bundled here with esbuild (in memory, a second or two) to
 * read the modules it takes in, as Gatsby's webpack would take in the same ones.
 * @jest-environment node
 */
import path from "node:path";
import { build } from "esbuild";
import { projectRoot } from "./support/harness";

test("the function's bundle holds no inbox, passkey, sign-in or push-hook code", async () => {
  const result = await build({
    entryPoints: [path.join(projectRoot, "src/api/email.ts")],
    absWorkingDir: projectRoot,
    bundle: true,
    platform: "node",
    format: "cjs",
    write: false,
    metafile: true,
    external: ["gatsby", "pg-native"],
    logLevel: "silent",
  });
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs).toContain("src/site-service/enquiries/core/receiver.ts");
  const unwanted = inputs.filter((file) =>
    /^src\/site-service\/(enquiries\/inbox|sign-in|push-hook|service\/server)\/?|@simplewebauthn|@peculiar/.test(file),
  );
  expect(unwanted).toEqual([]);
  // 1.9 MB through the public entry; about 0.75 MB without the inbox (esbuild, not minified).
  expect(result.outputFiles[0]!.contents.byteLength).toBeLessThan(1_000_000);
}, 30_000);
