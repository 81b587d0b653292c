import type { UIMatch } from "react-router";
import type { Locale } from "../shared/constants.ts";
import { switchLocalePath } from "../shared/i18n/index.ts";
import { pagePath, parseRouteId } from "../shared/i18n/pages.ts";

type AlternateParams = (params: Record<string, string | undefined>, to: Locale) => Record<string, string | undefined>;

/**
 * The current page in another locale, with its query (a search's filters, a ranking's period, the
 * course a poster is made from: the page without them is another page, or none).
 */
export function alternateHref(matches: UIMatch[], to: Locale, location: { pathname: string; search?: string }): string {
  const search = location.search && location.search !== "?" ? location.search : "";
  return `${alternatePath(matches, to, location.pathname)}${search}`;
}

/**
 * The current page's path in another locale, from the deepest localized route match; pages outside
 * the table (the 404) keep their path with the other prefix.
 */
export function alternatePath(matches: UIMatch[], to: Locale, pathname: string): string {
  for (let i = matches.length - 1; i >= 0; i--) {
    const match = matches[i];
    const parsed = match ? parseRouteId(match.id) : null;
    if (parsed && match) {
      // A page whose slug differs by language says how to find it in the other one.
      const handle = match.handle as { alternateParams?: AlternateParams } | undefined;
      const params = match.params as Record<string, string>;
      return pagePath(parsed.page, to, (handle?.alternateParams?.(params, to) as Record<string, string>) ?? params);
    }
  }
  return switchLocalePath(pathname, to);
}
