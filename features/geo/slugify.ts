/**
 * Accent-free, lower-case, hyphen-separated slug: "Saint-Étienne" → "saint-etienne",
 * "L'Haÿ-les-Roses" → "l-hay-les-roses", "Œuvre" → "oeuvre".
 * Domain-free; kept here until shared/ grows a text helper.
 */
export function slugify(text: string): string {
  return text
    .replace(/œ/g, "oe")
    .replace(/Œ/g, "Oe")
    .replace(/æ/g, "ae")
    .replace(/Æ/g, "Ae")
    .replace(/ß/g, "ss")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
