import { useLocation } from "react-router";
import type { Locale } from "../constants.ts";
import { localeFromPath } from "./index.ts";

/** The page's language, from its URL (English under /en). */
export function useLocale(): Locale {
  return localeFromPath(useLocation().pathname);
}
