import { ArrowRight, ChevronRight, SlidersHorizontal } from "lucide-react";
import { useTranslation } from "react-i18next";
import { data, Link, type MetaDescriptor, redirect } from "react-router";
import { toDepartmentRefs, toRegionRefs } from "../../features/search/components/geo-refs.ts";
import {
  type LandingSubject,
  landingKind,
  landingPath,
  landingQuery,
  landingTexts,
  sportFromSlug,
} from "../../features/search/components/landing.ts";
import { NoResults } from "../../features/search/components/NoResults.tsx";
import { Pagination } from "../../features/search/components/Pagination.tsx";
import { ResultList } from "../../features/search/components/ResultList.tsx";
import { searchHref } from "../../features/search/search-url.ts";
import { type Locale, SPORTS } from "../../shared/constants.ts";
import { formatNumber } from "../../shared/format.ts";
import { createI18n, localeFromPath } from "../../shared/i18n/index.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { useLocale } from "../../shared/i18n/use-locale.ts";
import { publicUrl } from "../../shared/public-url.ts";
import { searchSlots } from "../components/search-slots.tsx";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/landing";

type RelatedLink = { href: string; label: string; count?: number };
type RelatedGroup = { key: string; values: Record<string, string>; links: RelatedLink[] };

const translators = { fr: createI18n("fr"), en: createI18n("en") };

const notFound = () => data({ kind: "item" as const }, { status: 404 });

function pageParam(url: URL): number | null {
  const raw = url.searchParams.get("page");
  if (raw === null || raw === "") return 1;
  return /^[1-9]\d{0,4}$/.test(raw) ? Number(raw) : null;
}

/**
 * One module for the four landing pages (sport, region, department, sport in a region; the route
 * id, or here the params, tell which). Slugs are resolved in the page's language; a slug of the
 * other language, or a code instead of a slug, redirects to the canonical address.
 */
/** The same for everyone: members get the visitors' copy and fill in their parts (decision 024). */
export const handle = { shared: true };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const locale = localeFromPath(url.pathname);
  const kind = landingKind(params);
  if (!kind) throw notFound();
  const { services } = context;
  const subject: LandingSubject = { kind };
  let canonicalSlugs = true;

  if (params.sport) {
    const found = sportFromSlug(params.sport, locale);
    if (!found) throw notFound();
    subject.sport = found.sport.key;
    canonicalSlugs &&= found.exact;
  }
  const [regionList, departmentList] = await Promise.all([services.geo.regions(), services.geo.departments()]);
  const regions = toRegionRefs(regionList);
  const departments = toDepartmentRefs(departmentList);
  if (params.region) {
    const region = regions.find((r) => r.slug === params.region) ?? regions.find((r) => r.code === params.region);
    if (!region) throw notFound();
    subject.region = region;
    canonicalSlugs &&= region.slug === params.region;
  }
  if (params.department) {
    const wanted = params.department;
    const department =
      departments.find((d) => d.slug === wanted) ?? departments.find((d) => d.code === wanted.toUpperCase());
    if (!department) throw notFound();
    subject.department = department;
    subject.region = regions.find((r) => r.code === department.regionCode);
    canonicalSlugs &&= department.slug === wanted;
  }

  const page = pageParam(url);
  if (page === null) throw redirect(landingPath(subject, locale), 301);
  if (!canonicalSlugs) throw redirect(landingPath(subject, locale, page), 301);

  const search = (query: Parameters<typeof services.search.search>[0]) => services.search.search(query);
  const { result, ignored } = await services.search.lenient({ ...landingQuery(subject), page });
  // Past the last page: back to the first.
  if (ignored.includes("page")) throw redirect(landingPath(subject, locale), 302);

  const related = await relatedGroups(subject, result.facets, locale, regions, departments, search);
  return {
    subject,
    result,
    year: new Date().getFullYear(),
    related,
    refineHref: searchHref(pagePath("home", locale), landingQuery(subject)),
  };
}

type Facets = Awaited<ReturnType<Route.LoaderArgs["context"]["services"]["search"]["search"]>>["facets"];

/** Links to the neighbouring landing pages, with how many races each holds when known. */
async function relatedGroups(
  subject: LandingSubject,
  facets: Facets,
  locale: Locale,
  regions: ReturnType<typeof toRegionRefs>,
  departments: ReturnType<typeof toDepartmentRefs>,
  search: (query: { region?: string; perPage?: number }) => Promise<{ facets: Facets }>,
): Promise<RelatedGroup[]> {
  const groups: RelatedGroup[] = [];
  const regionCount = (r: { code: string; slug: string }) => facets.region?.[r.code] ?? facets.region?.[r.slug] ?? 0;
  const sportName = (key: string) => SPORTS.find((s) => s.key === key)?.[locale] ?? key;
  const region = subject.region;

  if (subject.kind === "sport" && subject.sport) {
    const sport = subject.sport;
    groups.push({
      key: "sportByRegion",
      values: { sport: sportName(sport) },
      links: regions
        .filter((r) => regionCount(r) > 0)
        .map((r) => ({
          href: landingPath({ kind: "sportRegion", sport, region: r }, locale),
          label: r.name,
          count: regionCount(r),
        })),
    });
  }

  if (region && (subject.kind === "region" || subject.kind === "sportRegion" || subject.kind === "department")) {
    // Sport facets leave out the page's own sport; a department page asks for its region's.
    const sportFacets =
      subject.kind === "department" ? (await search({ region: region.code, perPage: 1 })).facets.sport : facets.sport;
    const sports = SPORTS.filter((s) => s.key !== subject.sport && (sportFacets?.[s.key] ?? 0) > 0);
    groups.push({
      key: subject.kind === "sportRegion" ? "otherSports" : "sportsInRegion",
      values: { region: region.name },
      links: sports.map((s) => ({
        href: landingPath({ kind: "sportRegion", sport: s.key, region }, locale),
        label: s[locale],
        count: sportFacets?.[s.key],
      })),
    });
    groups.push({
      key: subject.kind === "department" ? "otherDepartments" : "departments",
      values: { region: region.name },
      links: departments
        .filter((d) => d.regionCode === region.code && d.code !== subject.department?.code)
        .map((d) => ({
          href: landingPath({ kind: "department", department: d, region }, locale),
          label: `${d.name} (${d.code})`,
        })),
    });
  }

  const seeAlso: RelatedLink[] = [];
  if (region && subject.kind !== "region") {
    seeAlso.push({
      href: landingPath({ kind: "region", region }, locale),
      label: translators[locale].t("landing:page.related.regionLink", { region: region.name }),
    });
  }
  if (subject.kind === "sportRegion" && subject.sport) {
    seeAlso.push({
      href: landingPath({ kind: "sport", sport: subject.sport }, locale),
      label: translators[locale].t("landing:page.related.sportLink", { sport: sportName(subject.sport) }),
    });
  }
  if (seeAlso.length) groups.push({ key: "seeAlso", values: {}, links: seeAlso });
  if (subject.kind === "sport" || subject.kind === "region") {
    groups.push({
      key: "sports",
      values: {},
      links: SPORTS.filter((s) => s.key !== subject.sport).map((s) => ({
        href: landingPath({ kind: "sport", sport: s.key }, locale),
        label: s[locale],
      })),
    });
  }
  return groups.filter((g) => g.links.length > 0);
}

export const meta: Route.MetaFunction = (args) => {
  const loaded = args.data;
  if (!loaded) {
    return routeMeta(args, {
      title: "common:errors.itemNotFoundTitle",
      description: "common:errors.itemNotFound",
      noIndex: true,
      noAlternates: true,
    });
  }
  const locale = localeFromPath(args.location.pathname);
  const t = translators[locale].t;
  const { subject, result, year } = loaded;
  const texts = landingTexts(t, subject, result.total, year, locale);
  const page = result.page;
  const title = page > 1 ? t("landing:page.pageSuffix", { title: texts.title, page }) : texts.title;
  const descriptors = routeMeta(args, {
    title,
    description: texts.description,
    literal: true,
    canonical: landingPath(subject, locale, page),
    // A page without races is thin content: kept out of the index until races come.
    noIndex: result.total === 0,
  });
  // hreflang: the other language's slugs (the shared helper only swaps the prefix and params).
  const root = args.matches.find((m) => m?.id === "root")?.data as { publicUrl?: string } | undefined;
  const absolute = (path: string) => (root?.publicUrl ? publicUrl(path, root.publicUrl) : publicUrl(path));
  const alternates: Record<string, string> = {
    fr: absolute(landingPath(subject, "fr", page)),
    en: absolute(landingPath(subject, "en", page)),
    "x-default": absolute(landingPath(subject, "fr", page)),
  };
  return descriptors.map((descriptor: MetaDescriptor) => {
    const d = descriptor as { tagName?: string; rel?: string; hrefLang?: string };
    if (d.tagName === "link" && d.rel === "alternate" && d.hrefLang && alternates[d.hrefLang]) {
      return { ...descriptor, href: alternates[d.hrefLang] } as MetaDescriptor;
    }
    return descriptor;
  });
};

export default function Landing({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("landing");
  const locale = useLocale();
  const { subject, result, year, related, refineHref } = loaderData;
  const texts = landingTexts(i18n.t, subject, result.total, year, locale);
  const crumbs = breadcrumbs(subject, locale, t("page.home"));

  return (
    <>
      <section className="bg-gradient-to-br from-ink-900 to-ink-700 text-white">
        <div className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
          <nav aria-label={t("page.breadcrumb")} className="mb-3 text-slate-300 text-sm">
            <ol className="flex flex-wrap items-center gap-1">
              {crumbs.map((crumb, index) => (
                <li key={crumb.href} className="flex items-center gap-1">
                  {index > 0 ? <ChevronRight className="size-3.5" aria-hidden="true" /> : null}
                  {index === crumbs.length - 1 ? (
                    <span aria-current="page" className="text-white">
                      {crumb.label}
                    </span>
                  ) : (
                    <Link to={crumb.href} className="hover:text-white hover:underline">
                      {crumb.label}
                    </Link>
                  )}
                </li>
              ))}
            </ol>
          </nav>
          <h1 className="font-extrabold text-2xl leading-tight sm:text-3xl">{texts.heading}</h1>
          <p className="mt-2 max-w-3xl text-slate-200 text-sm leading-relaxed sm:text-base">{texts.intro}</p>
          <Link
            to={refineHref}
            className="mt-4 inline-flex items-center gap-2 rounded-lg bg-white px-4 py-2 font-semibold text-ink-900 text-sm shadow hover:bg-brand-50"
          >
            <SlidersHorizontal className="size-4" aria-hidden="true" />
            {t("page.refine")}
          </Link>
        </div>
      </section>

      <div className="mx-auto max-w-6xl px-4 py-6">
        <section aria-labelledby="landing-results">
          <h2
            id="landing-results"
            className="mb-4 font-bold text-ink-900 text-lg sm:text-xl"
            data-testid="result-count"
          >
            {t("results.upcoming", { count: result.total, formatted: formatNumber(result.total, locale) })}
          </h2>
          {result.total === 0 ? (
            <NoResults />
          ) : (
            <ResultList items={result.items} layout="grid" locale={locale} wide eager={3} slots={searchSlots(locale)} />
          )}
          <Pagination page={result.page} pages={result.pages} hrefFor={(page) => landingPath(subject, locale, page)} />
        </section>

        {related.map((group) => (
          <section key={group.key} aria-labelledby={`related-${group.key}`} className="mt-10">
            <h2 id={`related-${group.key}`} className="mb-3 font-bold text-base text-ink-900 sm:text-lg">
              {t(`page.related.${group.key}`, group.values)}
            </h2>
            <ul className="flex flex-wrap gap-2" data-testid={`related-${group.key}`}>
              {group.links.map((link) => (
                <li key={link.href}>
                  <Link
                    to={link.href}
                    className="inline-flex items-center gap-1.5 rounded-full border border-slate-300 bg-white px-3 py-1.5 text-ink-900 text-sm hover:border-brand-600 hover:text-brand-700"
                  >
                    {link.label}
                    {link.count !== undefined ? (
                      <span className="rounded-full bg-slate-100 px-1.5 text-ink-700 text-xs">
                        {formatNumber(link.count, locale)}
                      </span>
                    ) : null}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}

        <p className="mt-10">
          <Link
            to={refineHref}
            className="inline-flex items-center gap-1.5 font-semibold text-brand-700 hover:underline"
          >
            {t("page.refine")}
            <ArrowRight className="size-4" aria-hidden="true" />
          </Link>
        </p>
      </div>
    </>
  );
}

function breadcrumbs(subject: LandingSubject, locale: Locale, home: string): { href: string; label: string }[] {
  const crumbs = [{ href: pagePath("home", locale), label: home }];
  const sport = subject.sport ? SPORTS.find((s) => s.key === subject.sport) : undefined;
  if (sport) crumbs.push({ href: landingPath({ kind: "sport", sport: sport.key }, locale), label: sport[locale] });
  if (subject.region && subject.kind !== "sport") {
    crumbs.push({
      href:
        subject.kind === "sportRegion"
          ? landingPath(subject, locale)
          : landingPath({ kind: "region", region: subject.region }, locale),
      label: subject.region.name,
    });
  }
  if (subject.department) {
    crumbs.push({
      href: landingPath(subject, locale),
      label: `${subject.department.name} (${subject.department.code})`,
    });
  }
  return crumbs;
}
