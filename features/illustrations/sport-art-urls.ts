/**
 * Addresses of the sports' stand-in pictures (art/<sport>.svg): hashed assets of the build, never
 * inlined, so a page names each file instead of carrying its drawing once per card.
 */
import type { SportKey } from "../../shared/constants.ts";

const files = import.meta.glob<string>("./art/*.svg", { query: "?no-inline", import: "default", eager: true });

const bySport = new Map(Object.entries(files).map(([path, url]) => [path.replace(/^.*\/|\.svg$/g, ""), url]));

export function sportArtUrl(sport: SportKey): string {
  return bySport.get(sport) ?? "";
}
