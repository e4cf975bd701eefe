/** What the enquiry form's island reads beside its tag: the texts its HTML shows only once scripted. */
export interface EnquiryFormIslandData {
  sending: string;
  requiredMessage: string;
  successMessage: string;
  errorMessage: string;
}
