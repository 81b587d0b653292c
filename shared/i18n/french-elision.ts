/**
 * French contractions where a name is put after "de" or "à" in a sentence ("Autour de {{place}}"):
 * "de Annecy" → "d'Annecy", "de Le Mans" → "du Mans", "de Les Sables-d'Olonne" → "des
 * Sables-d'Olonne", "à Le Mans" → "au Mans", "à Les Abymes" → "aux Abymes". Only before a
 * capitalised word (a name): the catalogues' own words are already right, and a capital after "de"
 * comes from an interpolated name. Not before H (Haute-Savoie, Le Havre's "h" is aspirated, as are
 * many) nor Y, where usage varies; "La" and "L'" stay ("de La Rochelle").
 *
 * Applied to every French message: by i18next on the server and in mail (a post-processor), by
 * its stand-in in the browser (i18next-lite.ts), so both render the same text.
 */
const VOWEL_NAME = /(^|[\s(«"“])([Dd])e ([AEIOUÀÂÉÈÊËÎÏÔÖÛÜŒÆ][\p{L}\p{M}'’-])/gu;
const ARTICLE = /(^|[\s(«"“])(de|De|à|À) (Le|Les) (?=\p{Lu})/gu;

const CONTRACTED: Record<string, Record<string, string>> = {
  de: { Le: "du", Les: "des" },
  De: { Le: "Du", Les: "Des" },
  à: { Le: "au", Les: "aux" },
  À: { Le: "Au", Les: "Aux" },
};

export function elideFrench(text: string): string {
  if (!text.includes("e ") && !text.includes("à ") && !text.includes("À ")) return text;
  return text
    .replace(ARTICLE, (_m, before: string, preposition: string, article: string) => {
      return `${before}${CONTRACTED[preposition][article]} `;
    })
    .replace(VOWEL_NAME, (_m, before: string, d: string, start: string) => `${before}${d}'${start}`);
}

/** The same as an i18next post-processor (`postProcess: [FRENCH_ELISION]`), French only. */
export const FRENCH_ELISION = "frenchElision";
export const frenchElisionProcessor = {
  type: "postProcessor" as const,
  name: FRENCH_ELISION,
  process(value: string, _key: unknown, options: { lng?: string } | undefined, translator: { language?: string }) {
    // getFixedT(lng) passes its language in the options; t() of the instance uses its own.
    const language = options?.lng ?? translator?.language;
    return language === "fr" && typeof value === "string" ? elideFrench(value) : value;
  },
};
