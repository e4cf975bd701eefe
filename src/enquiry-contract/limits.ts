/**
 * Field lengths the receiver accepts. The form sets the same maxLength, so a visitor cannot type
 * an enquiry the receiver would refuse with only the spec's generic error to show for it.
 */
export const ENQUIRY_MAX_LENGTH = { name: 200, phone: 40, email: 254, message: 5000 } as const;
