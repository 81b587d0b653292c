/**
 * The words of a text query: which ones count (stop words left out), their accent-free form,
 * whether some event's text has them, and for those no event has (probably misspelt) the words of
 * events' names, towns, venues and organisers they are a typo of.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { normalizeText, typoAllowance, typoCorrections, type Vocabulary, vocabularyOf } from "./free-text.ts";
import { pgArray } from "./search-context.server.ts";

const MAX_WORDS = 8;

/**
 * A significant word of the query: as typed (lower case), accent-free, whether some event's text
 * has it (else it is probably misspelt: matched by trigrams and by `corrections`, the words of
 * event names, towns, venues and organisers it is a typo of).
 */
export type QueryWord = { raw: string; norm: string; known: boolean; corrections: string[] };

/** Words of a text query: letters and digits, lower case, 2 to 40 characters, at most 8. */
export function queryWords(text: string): string[] {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 2 && w.length <= 40);
  return [...new Set(words)].slice(0, MAX_WORDS);
}

export function queryWordReader(db: Db) {
  /**
   * Query words: accent-free form, stop word or not, and whether some event has it (as a word or
   * the start of one) in its text vector. Cached: known words for good, unknown ones a minute.
   */
  const wordCache = new Map<string, { norm: string; stop: boolean; known: boolean; at: number }>();
  /**
   * The words of active events' names, towns, venues and organisers (accent-free, 5 letters or
   * more) that an unknown query word may be a typo of. Read when first needed (split here: the
   * same in SQL takes several times longer), kept ten minutes, forgotten by forget().
   */
  let vocabulary: { at: number; words: Promise<Vocabulary> } | undefined;

  function typoVocabulary(): Promise<Vocabulary> {
    const now = Date.now();
    if (!vocabulary || now - vocabulary.at > 600_000) {
      const words = rows<{ text: string }>(
        db,
        sql`SELECT concat_ws(' ', name, city, place, organizer_name) AS text FROM events WHERE status = 'active'`,
      ).then((found) =>
        vocabularyOf(
          found.flatMap((row) =>
            normalizeText(row.text)
              .split(/[^\p{L}\p{N}]+/u)
              .filter((w) => w.length >= 5),
          ),
        ),
      );
      words.catch(() => {
        vocabulary = undefined;
      });
      vocabulary = { at: now, words };
    }
    return vocabulary.words;
  }

  return {
    /** The significant words among `words`, classified against the events' text. */
    async classify(words: string[]): Promise<QueryWord[]> {
      const now = Date.now();
      const missing = words.filter((w) => {
        const hit = wordCache.get(w);
        return !hit || (!hit.known && now - hit.at > 60_000);
      });
      if (missing.length) {
        const found = await rows<{ w: string; norm: string; stop: boolean; known: boolean }>(
          db,
          sql`SELECT w, norm, stop, NOT stop AND EXISTS (
                SELECT 1 FROM events x WHERE x.search_vector @@ to_tsquery('fr_unaccent', w || ':*')) AS known
              FROM (SELECT w, immutable_unaccent(w) AS norm,
                      coalesce(cardinality(ts_lexize('french_stem', immutable_unaccent(w))), 1) = 0 AS stop
                    FROM unnest(${pgArray(missing)}::text[]) AS w) AS words`,
        );
        if (wordCache.size > 5_000) wordCache.clear();
        for (const row of found) wordCache.set(row.w, { norm: row.norm, stop: row.stop, known: row.known, at: now });
      }
      const kept = words.flatMap((w) => {
        const hit = wordCache.get(w);
        return hit && !hit.stop ? [{ raw: w, norm: hit.norm, known: hit.known, corrections: [] as string[] }] : [];
      });
      if (kept.some((w) => !w.known && typoAllowance(w.norm.length) > 0)) {
        const known = await typoVocabulary();
        for (const w of kept) if (!w.known) w.corrections = typoCorrections(w.norm, known);
      }
      return kept;
    },

    /** Forgets the typo vocabulary and the words no event had (events were written). */
    forget() {
      vocabulary = undefined;
      for (const [word, entry] of wordCache) if (!entry.known) wordCache.delete(word);
    },
  };
}
