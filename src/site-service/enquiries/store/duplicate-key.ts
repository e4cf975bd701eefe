/**
 * The duplicate key of an enquiry: every field's value in the definition's order; an address in any case is the same
 * address.
 */
import { createHash } from "node:crypto";
import { ENQUIRY_FIELD_NAMES, fieldSpec, type Enquiry } from "../../../enquiry-contract/enquiry-fields";

export function fingerprint(enquiry: Enquiry): string {
  const values = ENQUIRY_FIELD_NAMES.map((name) =>
    fieldSpec(name).kind === "email" ? enquiry[name].toLowerCase() : enquiry[name],
  );
  return createHash("sha256").update(JSON.stringify(values)).digest("base64url");
}
