/**
 * @jest-environment node
 *
 * The terminal of `gatsby develop`: the report as an error (which does not stop the server) when the
 * problems change, one line when the content is good again, and nothing when nothing changed; the
 * check at start-up stops with the same report.
 */
import { formatProblems, type ContentProblem } from "../../src/node/content/problems";
import {
  ERROR_ID,
  contentReporter,
  errorMap,
  resetContentReporter,
  type ContentReporter,
} from "../../plugins/gatsby-plugin-cyrus-content/src/reporter";
import { checkAtStart } from "../../plugins/gatsby-plugin-cyrus-content/src/start";
import {
  NO_PROBLEMS,
  noWarningsIn,
  terminalReport,
  warningReport,
} from "../../plugins/gatsby-plugin-cyrus-content/src/terminal";
import { typo } from "./support/problems";

const missing: ContentProblem = {
  file: "data/services/a.yaml",
  line: 2,
  column: 1,
  field: "title",
  message: "is missing",
};

function fakeReporter() {
  return {
    setErrorMap: jest.fn(),
    error: jest.fn(),
    panic: jest.fn(),
    success: jest.fn(),
    info: jest.fn(),
    warn: jest.fn(),
  } satisfies ContentReporter;
}

describe("terminalReport", () => {
  test("prints only when the result changes", () => {
    const reporter = fakeReporter();
    const report = terminalReport(reporter);

    report([]); // as at start-up: nothing new
    expect(reporter.error).not.toHaveBeenCalled();
    expect(reporter.success).not.toHaveBeenCalled();

    report([typo, missing]);
    report([typo, missing]); // a save that changes nothing
    expect(reporter.error).toHaveBeenCalledTimes(1);
    expect(reporter.error).toHaveBeenLastCalledWith({
      id: ERROR_ID,
      context: { message: formatProblems([typo, missing]) },
    });

    report([typo]);
    expect(reporter.error).toHaveBeenCalledTimes(2);
    expect(reporter.error).toHaveBeenLastCalledWith({ id: ERROR_ID, context: { message: formatProblems([typo]) } });

    report([]);
    report([]);
    expect(reporter.success).toHaveBeenCalledTimes(1);
    expect(reporter.success).toHaveBeenCalledWith(NO_PROBLEMS);
    expect(reporter.panic).not.toHaveBeenCalled();
  });
});

describe("warningReport", () => {
  const long: ContentProblem = { ...missing, field: "bannerAlt", message: "the text is 700 characters long …" };
  const large: ContentProblem = {
    file: "data/about/about.yaml",
    line: 4,
    field: "banner",
    message: "the image is 12 MB …",
  };

  test("prints a file's warnings when they change, in the check's words, and one line when they are gone", () => {
    const reporter = fakeReporter();
    const report = warningReport(reporter, [large]); // printed at start-up

    report([large]); // another save: nothing printed again
    expect(reporter.warn).not.toHaveBeenCalled();

    report([long, large]); // a.yaml saved with a text far too long: only its warning
    expect(reporter.warn).toHaveBeenCalledTimes(1);
    expect(reporter.warn).toHaveBeenLastCalledWith(formatProblems([long], "warning"));

    report([long, large]);
    expect(reporter.warn).toHaveBeenCalledTimes(1);

    report([large]); // shortened
    expect(reporter.info).toHaveBeenCalledTimes(1);
    expect(reporter.info).toHaveBeenLastCalledWith(noWarningsIn(long.file));
    expect(noWarningsIn(long.file)).toBe("The content check found no more warnings in data/services/a.yaml");

    report([]);
    expect(reporter.info).toHaveBeenLastCalledWith(noWarningsIn(large.file));
    expect(reporter.warn).toHaveBeenCalledTimes(1);
  });
});

describe("the check at start-up", () => {
  test("problems stop it with the report under the content-check id", () => {
    const reporter = fakeReporter();
    expect(checkAtStart(reporter, "/data", () => ({ problems: [typo], warnings: [] })).problems).toEqual([typo]);
    expect(reporter.panic).toHaveBeenCalledWith({ id: "content-check", context: { message: formatProblems([typo]) } });
    expect(reporter.success).not.toHaveBeenCalled();
  });

  test("none: one line says so", () => {
    const reporter = fakeReporter();
    expect(checkAtStart(reporter, "/data", () => ({ problems: [], warnings: [] })).problems).toEqual([]);
    expect(reporter.success).toHaveBeenCalledWith("The content check found no problems in data/");
    expect(reporter.panic).not.toHaveBeenCalled();
    expect(reporter.warn).not.toHaveBeenCalled();
  });

  test("warnings are printed as the check prints them, and the build goes on", () => {
    const reporter = fakeReporter();
    const large: ContentProblem = { ...missing, field: "banner", message: "the image x.jpg is 12.0 MB, far more …" };
    expect(checkAtStart(reporter, "/data", () => ({ problems: [], warnings: [large] }))).toEqual({
      problems: [],
      warnings: [large],
    });
    expect(reporter.warn).toHaveBeenCalledWith(formatProblems([large], "warning"));
    expect(reporter.success).toHaveBeenCalledWith("The content check found no problems in data/");
    expect(reporter.panic).not.toHaveBeenCalled();
  });
});

describe("the reporter", () => {
  afterEach(resetContentReporter);

  test("the error map prints the report as it is, as the user's error, without a type", () => {
    const entry = errorMap[ERROR_ID];
    expect(entry.text({ message: "The report" })).toBe("The report");
    expect(entry).toMatchObject({ level: "ERROR", category: "USER", type: undefined });
  });

  test("Gatsby's singleton is used when found, with the error map set", () => {
    const singleton = fakeReporter();
    const fallback = fakeReporter();
    expect(contentReporter(fallback, () => singleton)).toBe(singleton);
    expect(singleton.setErrorMap).toHaveBeenCalledWith(errorMap);
    expect(fallback.warn).not.toHaveBeenCalled();
  });

  test("without it, the plugin API's reporter, and a warning that says so", () => {
    const fallback = fakeReporter();
    expect(contentReporter(fallback, () => undefined)).toBe(fallback);
    expect(fallback.setErrorMap).toHaveBeenCalledWith(errorMap);
    expect(fallback.warn).toHaveBeenCalledWith(expect.stringMatching(/gatsby-cli\/lib\/reporter.*was not found/));
  });
});
