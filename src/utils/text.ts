import type { Address } from "../types/content";

/** Replaces each `{key}` in a template from the data files, e.g. "{n} of {total}". */
export function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (match, key: string) => (key in values ? String(values[key]) : match));
}

/** A tel: address from a number as displayed ("+91 00000 00000"): dialers want + and digits only. */
export function telHref(display: string): string {
  return `tel:${display.replace(/[^\d+]/g, "")}`;
}

export function mailtoHref(email: string): string {
  return `mailto:${email}`;
}

/** WhatsApp click-to-chat link with a prefilled message. */
export function whatsappHref(number: string, greeting: string): string {
  return `https://wa.me/${number.replace(/\D/g, "")}?text=${encodeURIComponent(greeting)}`;
}

/**
 * Postal address as display lines, e.g. ["Guindy", "Chennai 600032", "Tamil Nadu", "India"].
 * An editor may repeat the locality in the street field; showing it twice would look like a typo.
 */
export function addressLines(address: Address): string[] {
  const lines = [
    address.streetAddress,
    address.locality,
    `${address.city} ${address.postalCode}`,
    address.region,
    address.country,
  ];
  return lines.filter((line, i) => line.trim() !== "" && line !== lines[i - 1]);
}
