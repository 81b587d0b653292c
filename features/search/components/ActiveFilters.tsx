import { X } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { SPORTS } from "../../../shared/constants.ts";
import { formatPageDateRange } from "../../../shared/dates.ts";
import { formatNumber } from "../../../shared/format.ts";
import type { SearchQuery, SearchResult } from "../search.contract.ts";
import { type SearchView, updateSearchQuery, withoutField } from "../search-url.ts";
import type { DepartmentRef, RegionRef } from "./geo-refs.ts";

type Props = {
  query: SearchQuery;
  view: SearchView;
  place: SearchResult["place"];
  regions: RegionRef[];
  departments: DepartmentRef[];
  href: (query: SearchQuery, view?: SearchView) => string;
  /** The words as typed when the page read them as filters ("trail annecy"). */
  typed?: string | null;
  /** Shown after the chips, given their labels ("Alert me" names the alert after them). */
  action?: (label: string) => ReactNode;
};

type ActiveChip = { key: string; label: string; without: SearchQuery };

/**
 * The filters in force as chips, each a link to the same search without it: what the page
 * understood from the search box shows here too, and removing one works without JavaScript.
 */
export function ActiveFilters({ query, view, place, regions, departments, href, typed, action }: Props) {
  const { t, i18n } = useTranslation("landing");
  const { t: ts } = useTranslation("sports");
  const { t: tu } = useTranslation("ui");
  const locale = i18n.language;
  const km = (value: number) => formatNumber(value, locale, { maximumFractionDigits: 1 });
  const chips: ActiveChip[] = [];
  const drop = (field: string) => withoutField(query, field);

  if (query.q) chips.push({ key: "q", label: t("active.text", { text: query.q }), without: drop("q") });
  for (const sport of SPORTS.filter((s) => query.sport?.includes(s.key))) {
    chips.push({
      key: `sport-${sport.key}`,
      label: ts(sport.key),
      without: updateSearchQuery(query, { sport: query.sport?.filter((s) => s !== sport.key) }),
    });
  }
  if (query.place || (query.lat !== undefined && query.lng !== undefined)) {
    const name = place?.name ?? query.place ?? "";
    chips.push({
      key: "place",
      label: t("active.around", { place: name, km: km(place?.radius ?? query.radius ?? 30) }),
      without: drop("place"),
    });
  }
  const region = query.region ? regions.find((r) => r.code === query.region || r.slug === query.region) : undefined;
  if (query.region) chips.push({ key: "region", label: region?.name ?? query.region, without: drop("region") });
  const department = query.department
    ? departments.find((d) => d.code === query.department || d.slug === query.department)
    : undefined;
  if (query.department) {
    chips.push({
      key: "department",
      label: department ? `${department.name} (${department.code})` : query.department,
      without: drop("department"),
    });
  }
  if (query.range) chips.push({ key: "range", label: tu(`dateRange.quick.${query.range}`), without: drop("range") });
  else if (query.from || query.to) {
    const label = query.from && query.to ? formatPageDateRange(query.from, query.to, locale) : null;
    chips.push({
      key: "dates",
      label:
        label ??
        (query.from
          ? t("active.from", { date: formatPageDateRange(query.from, null, locale) })
          : t("active.to", { date: formatPageDateRange(query.to, null, locale) })),
      without: drop("from"),
    });
  }
  for (const key of query.distance ?? []) {
    chips.push({
      key: `distance-${key}`,
      label: t(`distance.${key}`),
      without: updateSearchQuery(query, { distance: query.distance?.filter((d) => d !== key) }),
    });
  }
  if (query.distanceMin !== undefined || query.distanceMax !== undefined) {
    const label =
      query.distanceMin !== undefined && query.distanceMax !== undefined
        ? t("active.distanceBetween", { min: km(query.distanceMin), max: km(query.distanceMax) })
        : query.distanceMin !== undefined
          ? t("active.distanceFrom", { min: km(query.distanceMin) })
          : t("active.distanceTo", { max: km(query.distanceMax as number) });
    chips.push({
      key: "distanceRange",
      label,
      without: updateSearchQuery(query, { distanceMin: undefined, distanceMax: undefined }),
    });
  }
  for (const key of query.elevation ?? []) {
    chips.push({
      key: `elevation-${key}`,
      label: `D+ ${t(`elevation.${key}`)}`,
      without: updateSearchQuery(query, { elevation: query.elevation?.filter((e) => e !== key) }),
    });
  }
  for (const key of query.scope ?? []) {
    chips.push({
      key: `scope-${key}`,
      label: t(`scope.${key}`),
      without: updateSearchQuery(query, { scope: query.scope?.filter((s) => s !== key) }),
    });
  }
  if (query.cancelled)
    chips.push({ key: "cancelled", label: t("filters.includeCancelled"), without: drop("cancelled") });
  if (query.past) chips.push({ key: "past", label: t("filters.includeFinished"), without: drop("past") });
  if (query.minRating !== undefined) {
    chips.push({
      key: "minRating",
      label: t("filters.ratingAtLeast", { value: formatNumber(query.minRating, i18n.language) }),
      without: drop("minRating"),
    });
  }

  if (!chips.length && !typed) return null;
  return (
    <div className="mb-4" data-testid="active-filters">
      {typed ? (
        <p className="mb-2 text-ink-700 text-sm" data-testid="understood">
          {t("active.understood", { text: typed })}{" "}
          <Link
            to={href({ q: typed, literal: true }, view)}
            className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-600"
          >
            {t("active.asTyped", { text: typed })}
          </Link>
        </p>
      ) : null}
      {chips.length ? (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <ul className="flex flex-wrap gap-1.5" aria-label={t("active.label")}>
            {chips.map((chip) => (
              <li key={chip.key}>
                <Link
                  to={href(chip.without, view)}
                  preventScrollReset
                  className="flex items-center gap-1 rounded-full border border-brand-700 bg-brand-50 py-1 pr-2 pl-3 text-ink-900 text-sm hover:bg-brand-100"
                  aria-label={t("active.remove", { filter: chip.label })}
                  data-testid={`active-filter-${chip.key}`}
                >
                  <span>{chip.label}</span>
                  <X className="size-3.5 text-ink-700" aria-hidden="true" />
                </Link>
              </li>
            ))}
          </ul>
          {action?.(chips.map((chip) => chip.label).join(" · "))}
        </div>
      ) : null}
    </div>
  );
}
