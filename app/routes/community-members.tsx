import { Search } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import {
  DIRECTORY_SORTS,
  type DirectorySort,
  directoryParamsSchema,
  directoryQuerySchema,
} from "../../features/community/community.contract.ts";
import { CommunityNav } from "../../features/community/components/CommunityNav.tsx";
import { MemberAvatar } from "../../features/community/components/MemberAvatar.tsx";
import { SPORTS } from "../../shared/constants.ts";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { INPUT_CLASS, LABEL_CLASS, PRIMARY_BUTTON } from "../../shared/ui/fields.tsx";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/community-members";

type DirectorySearch = { q?: string; city?: string; sport?: string; sort: DirectorySort };

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const get = (name: string) => url.searchParams.get(name)?.trim() || undefined;
  const sort = directoryParamsSchema.safeParse({ type: get("sort") });
  const query = directoryQuerySchema.safeParse({
    q: get("q"),
    city: get("city"),
    sport: get("sport"),
    page: get("page"),
  });
  const search: DirectorySearch = {
    ...(query.success ? { q: query.data.q, city: query.data.city, sport: query.data.sport } : {}),
    sort: (sort.success && sort.data.type) || "newest",
  };
  const directory = await context.services.community.directory(search.sort, {
    ...(query.success ? query.data : {}),
  });
  return { directory, search, filtered: url.search.length > 1, locale: localeFromPath(url.pathname) };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, {
    title: "community:directory.metaTitle",
    description: "community:directory.metaDescription",
    noIndex: Boolean(args.data?.filtered),
  });

const DATE = {
  fr: new Intl.DateTimeFormat("fr-FR", { month: "long", year: "numeric", timeZone: "Europe/Paris" }),
  en: new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "Europe/Paris" }),
};

export default function CommunityMembersPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("community");
  const { directory, search, locale } = loaderData;
  const base = pagePath("communityMembers", locale);
  const pages = Math.max(1, Math.ceil(directory.total / directory.pageSize));
  const pageHref = (page: number) => {
    const query = new URLSearchParams();
    for (const key of ["q", "city", "sport"] as const) if (search[key]) query.set(key, search[key] as string);
    if (search.sort !== "newest") query.set("sort", search.sort);
    if (page > 1) query.set("page", String(page));
    const text = query.toString();
    return text ? `${base}?${text}` : base;
  };
  const searching = Boolean(search.q || search.city || search.sport);
  return (
    <div className="mx-auto w-full max-w-6xl px-3 py-6 sm:px-4 sm:py-10">
      <header>
        <h1 className="font-bold text-3xl text-ink-900">{t("directory.heading")}</h1>
        <CommunityNav locale={locale} current="communityMembers" />
      </header>

      <Form
        method="get"
        action={base}
        role="search"
        aria-label={t("directory.search")}
        className="mt-5 grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[2fr_2fr_2fr_2fr_auto] lg:items-end"
      >
        <div>
          <label htmlFor="directory-q" className={LABEL_CLASS}>
            {t("directory.name")}
          </label>
          <input
            id="directory-q"
            name="q"
            type="search"
            maxLength={80}
            defaultValue={search.q ?? ""}
            className={INPUT_CLASS}
          />
        </div>
        <div>
          <label htmlFor="directory-city" className={LABEL_CLASS}>
            {t("directory.city")}
          </label>
          <input
            id="directory-city"
            name="city"
            type="text"
            maxLength={80}
            defaultValue={search.city ?? ""}
            className={INPUT_CLASS}
          />
        </div>
        <div>
          <label htmlFor="directory-sport" className={LABEL_CLASS}>
            {t("directory.sport")}
          </label>
          <select id="directory-sport" name="sport" defaultValue={search.sport ?? ""} className={INPUT_CLASS}>
            <option value="">{t("directory.anySport")}</option>
            {SPORTS.map((sport) => (
              <option key={sport.key} value={sport.key}>
                {sport[locale]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="directory-sort" className={LABEL_CLASS}>
            {t("directory.sort")}
          </label>
          <select id="directory-sort" name="sort" defaultValue={search.sort} className={INPUT_CLASS}>
            {DIRECTORY_SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {t(`directory.sorts.${sort}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={`${PRIMARY_BUTTON} inline-flex min-h-11 items-center justify-center gap-2`}>
          <Search className="h-4 w-4" aria-hidden="true" />
          {t("directory.submit")}
        </button>
      </Form>

      <p className="mt-4 text-ink-700" aria-live="polite">
        {t("directory.found", { count: directory.total })}
        {searching && (
          <>
            {" · "}
            <Link to={base} className="font-medium text-brand-700 underline">
              {t("directory.reset")}
            </Link>
          </>
        )}
      </p>

      {directory.members.length === 0 ? (
        <div className="mt-3 rounded-2xl border border-slate-300 border-dashed bg-white p-5 text-center text-ink-700">
          <p>{t(searching ? "directory.empty" : "directory.emptyAll")}</p>
          {!searching && (
            <Link
              to={pagePath("account", locale)}
              className={`${PRIMARY_BUTTON} mt-3 inline-flex min-h-11 items-center`}
            >
              {t("hub.joinAction")}
            </Link>
          )}
        </div>
      ) : (
        <ul className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="members">
          {directory.members.map((member) => (
            <li key={member.slug}>
              <Link
                to={pagePath("member", locale, { slug: member.slug })}
                className="flex h-full items-center gap-3 rounded-2xl border border-slate-200 bg-white p-3 shadow-sm hover:border-brand-600"
              >
                <MemberAvatar member={member} size={56} />
                <span className="min-w-0">
                  <span className="block truncate font-semibold text-ink-900">{member.displayName}</span>
                  {member.city && <span className="block truncate text-ink-700 text-sm">{member.city}</span>}
                  <span className="block text-ink-500 text-sm">
                    {t("directory.races", { count: member.races })} ·{" "}
                    {t("directory.since", { date: DATE[locale].format(new Date(member.memberSince)) })}
                  </span>
                  {member.sports.length > 0 && (
                    <span className="mt-1 flex flex-wrap gap-1">
                      {member.sports.slice(0, 3).map((key) => {
                        const sport = SPORTS.find((s) => s.key === key);
                        return sport ? (
                          <span key={key} className="rounded-full bg-brand-50 px-2 py-0.5 text-brand-800 text-xs">
                            {sport[locale]}
                          </span>
                        ) : null;
                      })}
                    </span>
                  )}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}

      {pages > 1 && (
        <nav
          aria-label={t("directory.pageOf", { page: directory.page, pages })}
          className="mt-4 flex items-center justify-center gap-4 text-sm"
        >
          {directory.page > 1 && (
            <Link
              to={pageHref(directory.page - 1)}
              className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
            >
              {t("directory.previous")}
            </Link>
          )}
          <span className="text-ink-700">{t("directory.pageOf", { page: directory.page, pages })}</span>
          {directory.page < pages && (
            <Link
              to={pageHref(directory.page + 1)}
              className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
            >
              {t("directory.next")}
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}
