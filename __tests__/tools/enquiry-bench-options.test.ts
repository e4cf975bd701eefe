/**
 * @jest-environment node
 *
 * `npm run bench:enquiries` options: the counts given, the defaults, and a word that is not a count
 * refused with the usage. The benchmark itself is not run here.
 */
import { parseBenchOptions } from "../../tools/bench/enquiry-options";

test("a quick run: the store's size and the other counts as given", () => {
  expect(
    parseBenchOptions([
      "--enquiries",
      "2000",
      "--concurrent",
      "0",
      "--size-count",
      "0",
      "--stores",
      "100",
      "--backups",
      "0",
    ]),
  ).toEqual({
    enquiries: 2000,
    concurrent: 0,
    sizeCount: 0,
    stores: 100,
    backups: 0,
  });
});

test("without options: 100,000 enquiries erased from and purged, 2,000 stored, 100,000 backed up and restored", () => {
  expect(parseBenchOptions([])).toEqual({
    concurrent: 500,
    sizeCount: 10_000,
    enquiries: 100_000,
    stores: 2_000,
    backups: 100_000,
  });
});

test("100_000 and 100,000 read as the number", () => {
  expect(parseBenchOptions(["--enquiries", "100_000"]).enquiries).toBe(100_000);
  expect(parseBenchOptions(["--enquiries=100,000"]).enquiries).toBe(100_000);
});

test("a count that is not a whole number, or too few to take a tenth of, is refused with the usage", () => {
  expect(() => parseBenchOptions(["--enquiries", "lots"])).toThrow(
    /--enquiries lots: a whole number is needed\nnpm run bench:enquiries/,
  );
  expect(() => parseBenchOptions(["--stores", "-5"])).toThrow();
  expect(() => parseBenchOptions(["--enquiries", "50"])).toThrow(/at least 100 \(or 0\)/);
  expect(() => parseBenchOptions(["--backups", "50"])).toThrow(/--backups 50: at least 100 \(or 0\)/);
});

test("an unknown option is refused", () => {
  expect(() => parseBenchOptions(["--enquires", "2000"])).toThrow(/enquires/);
});
