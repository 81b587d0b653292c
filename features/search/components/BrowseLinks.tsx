import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { type Locale, SPORTS } from "../../../shared/constants.ts";
import { formatNumber } from "../../../shared/format.ts";
import type { SearchResult } from "../search.contract.ts";
import type { RegionRef } from "./geo-refs.ts";
import { landingPath, sportLandingPath } from "./landing.ts";

const CHIP =
  "inline-flex min-h-10 items-center gap-1 rounded-full border border-slate-300 bg-white px-3 py-1.5 font-medium text-ink-900 text-sm hover:border-brand-600 hover:text-brand-700";

/**
 * The home page's ways into the calendar by sport and by region: links to the landing pages that
 * hold races, each with how many (the unfiltered search's facets).
 */
export function BrowseLinks({
  facets,
  regions,
  locale,
}: {
  facets: SearchResult["facets"];
  regions: readonly RegionRef[];
  locale: Locale;
}) {
  const { t } = useTranslation("landing");
  const { t: ts } = useTranslation("sports");
  const sports = SPORTS.filter((sport) => (facets.sport[sport.key] ?? 0) > 0).map((sport) => ({
    key: sport.key,
    href: sportLandingPath(sport.key, locale),
    label: ts(sport.key),
    count: facets.sport[sport.key] ?? 0,
  }));
  const places = regions
    .filter((region) => (facets.region[region.code] ?? 0) > 0)
    .map((region) => ({
      key: region.code,
      href: landingPath({ kind: "region", region }, locale),
      label: region.name,
      count: facets.region[region.code] ?? 0,
    }))
    .sort((a, b) => a.label.localeCompare(b.label, locale));
  if (!sports.length && !places.length) return null;
  return (
    <section aria-labelledby="browse-heading" className="mx-auto max-w-6xl px-4 pb-12" data-testid="browse-links">
      <h2 id="browse-heading" className="font-bold text-ink-900 text-lg sm:text-xl">
        {t("browse.heading")}
      </h2>
      <div className="mt-3 grid gap-5 lg:grid-cols-2">
        {[
          { id: "browse-sport", title: t("browse.bySport"), links: sports },
          { id: "browse-region", title: t("browse.byRegion"), links: places },
        ].map(({ id, title, links }) => (
          <div key={id}>
            <h3 id={id} className="mb-2 font-semibold text-ink-700 text-sm">
              {title}
            </h3>
            <ul aria-labelledby={id} className="flex flex-wrap gap-2">
              {links.map((link) => (
                <li key={link.key}>
                  <Link to={link.href} className={CHIP}>
                    {link.label}
                    <span className="text-ink-500 text-xs tabular-nums">({formatNumber(link.count, locale)})</span>
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </section>
  );
}
