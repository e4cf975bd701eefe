/**
 * Ajv's options for the content schemas, for the check (schema-validators.ts) and the studio, which
 * compiles the same schemas in the browser before a save (admin/src/entry-check.ts).
 * verbose: the messages need the schema beside an error (the fields known, the number of items wanted).
 * discriminator: an entry of a typed list (typed-lists.ts) is checked against its own kind only.
 */
export const AJV_OPTIONS = { allErrors: true, verbose: true, strict: false, discriminator: true } as const;
