import type { UIMatch } from "react-router";
import type { Locale } from "../shared/constants.ts";
import { switchLocalePath } from "../shared/i18n/index.ts";
import { pagePath, parseRouteId } from "../shared/i18n/pages.ts";

/**
 * The current page in another locale, from the deepest localized route match; pages outside the
 * table (the 404) keep their path with the other prefix.
 */
export function alternatePath(matches: UIMatch[], to: Locale, pathname: string): string {
  for (let i = matches.length - 1; i >= 0; i--) {
    const match = matches[i];
    const parsed = match ? parseRouteId(match.id) : null;
    if (parsed && match) return pagePath(parsed.page, to, match.params as Record<string, string>);
  }
  return switchLocalePath(pathname, to);
}
