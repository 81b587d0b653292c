import { useTranslation } from "react-i18next";
import { redirect } from "react-router";
import { ALERT_PARAM } from "../../features/alerts/components/AlertMeButton.tsx";
import { BrowseLinks } from "../../features/search/components/BrowseLinks.tsx";
import { toDepartmentRefs, toRegionRefs } from "../../features/search/components/geo-refs.ts";
import type { HomeGroup } from "../../features/search/components/HomeGroups.tsx";
import { SearchExplorer } from "../../features/search/components/SearchExplorer.tsx";
import { broaderSuggestion, TYPED_PARAM, understoodSearchHref } from "../../features/search/page-search.server.ts";
import { searchQuerySchema } from "../../features/search/search.contract.ts";
import {
  hasPlace,
  hasSearchFilters,
  parseSearchParams,
  searchHref,
  searchQueryString,
  withoutField,
} from "../../features/search/search-url.ts";
import { useLocale } from "../../shared/i18n/use-locale.ts";
import { searchSlots } from "../components/search-slots.tsx";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/home";

/**
 * Home and search are one screen: every filter is in the URL, parsed here and searched on the
 * server, so a reload or a shared link renders the same results without JavaScript.
 */
/** The same for everyone: members get the visitors' copy and fill in their parts (decision 024). */
export const handle = { shared: true };

export async function loader({ request, context }: Route.LoaderArgs) {
  const parsed = parseSearchParams(new URL(request.url).searchParams, searchQuerySchema.shape);
  let asked = parsed.query;
  // A radius or half a coordinate pair with nothing to measure from means nothing: dropped quietly
  // (a form without JavaScript always sends the radius menu's value).
  if (!hasPlace(asked) && (asked.radius || asked.lat !== undefined || asked.lng !== undefined)) {
    asked = withoutField(withoutField(asked, "radius"), "lat");
  }
  // One URL per search: a plain form's submission (empty fields, default values) or a hand-made
  // URL is redirected to the canonical form, unless a filter is refused (the page then says so).
  const url = new URL(request.url);
  const { services } = context;
  // "trail annecy": the words that name a sport, a place, a month or a distance become those filters.
  const understood = await understoodSearchHref(services.searchText, url.pathname, asked, parsed.view);
  if (understood) throw redirect(understood, 302);
  const given = new URLSearchParams(url.search);
  const typed = given.get(TYPED_PARAM)?.slice(0, 200) || null;
  // One-shot parameters the page itself reads (the alert to save once signed in).
  for (const internal of ["_routes", "index", "_data", TYPED_PARAM, ALERT_PARAM]) given.delete(internal);
  const canonical = searchQueryString(asked, parsed.view);
  if (parsed.invalid.length === 0 && given.toString() !== new URLSearchParams(canonical).toString()) {
    throw redirect(canonical ? `${url.pathname}?${canonical}` : url.pathname, 302);
  }
  // The home page proper (no filter, first page) also shows this weekend's and new races.
  const home = !hasSearchFilters(asked) && !asked.page;
  const [search, regions, departments, groups] = await Promise.all([
    services.search.lenient(asked),
    services.geo.regions(),
    services.geo.departments(),
    home ? homeGroups(services, url.pathname) : undefined,
  ]);
  const broader =
    search.result.total === 0 && hasSearchFilters(search.query)
      ? await broaderSuggestion(services.search, search.query)
      : null;
  return {
    typed,
    broader,
    query: search.query,
    view: parsed.view,
    result: search.result,
    ignored: [...parsed.invalid, ...search.ignored],
    regions: toRegionRefs(regions),
    departments: toDepartmentRefs(departments),
    mapStyleUrl: context.config.MAP_STYLE_URL,
    groups,
  };
}

async function homeGroups(services: Route.LoaderArgs["context"]["services"], pathname: string): Promise<HomeGroup[]> {
  const [weekend, fresh] = await Promise.all([
    services.groups.group("this_weekend", 10),
    services.groups.group("new", 10),
  ]);
  return [
    { key: "this_weekend", events: weekend.events, href: searchHref(pathname, weekend.search) },
    { key: "new", events: fresh.events },
  ];
}

export const meta: Route.MetaFunction = (args) => {
  const data = args.data;
  const filtered = data ? hasSearchFilters(data.query) || (data.query.page ?? 1) > 1 : false;
  return routeMeta(args, {
    title: filtered ? "landing:search.title" : "events:home.title",
    description: "events:home.description",
    // Filtered searches are endless variations: the landing pages are what search engines should index.
    noIndex: filtered,
  });
};

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("events");
  const locale = useLocale();
  return (
    <>
      <section className="bg-gradient-to-br from-ink-900 to-ink-700 text-white">
        <div className="mx-auto max-w-6xl px-4 py-5 sm:py-7">
          <h1 className="font-extrabold text-2xl leading-tight sm:text-3xl">{t("home.heading")}</h1>
          <p className="mt-1.5 max-w-3xl text-slate-200 text-sm sm:text-base">{t("home.lead")}</p>
        </div>
      </section>
      <SearchExplorer data={loaderData} locale={locale} slots={searchSlots(locale)} />
      {/* The home page proper: the landing pages by sport and by region. */}
      {loaderData.groups ? (
        <BrowseLinks facets={loaderData.result.facets} regions={loaderData.regions} locale={locale} />
      ) : null}
    </>
  );
}
