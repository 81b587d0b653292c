import { MapPin } from "lucide-react";
import { useTranslation } from "react-i18next";
import { data, redirect } from "react-router";
import { BadgeGrid, StatsFigures } from "../../features/badges/components/Achievements.tsx";
import { SPORTS } from "../../shared/constants.ts";
import { formatRaceTime } from "../../shared/format.ts";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { USER_FALLBACK_IMAGE } from "../../shared/image-url.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/member";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const slug = String(params.slug ?? "").toLowerCase();
  const profile = await context.services.accounts.publicProfile(slug);
  const locale = localeFromPath(new URL(request.url).pathname);
  if (!profile) {
    // An address the member had before a change of name: a 301 to the current one (issue 26 item 6).
    const current = await context.services.accounts.currentSlug(slug);
    if (current && (await context.services.accounts.publicProfile(current)))
      throw redirect(`${pagePath("member", locale, { slug: current })}${new URL(request.url).search}`, 301);
    throw data({ kind: "item" }, { status: 404 });
  }
  const [countries, badges] = await Promise.all([
    profile.country ? context.services.geo.countries(locale) : [],
    context.services.badges.ofProfile(profile.slug),
  ]);
  return { profile, badges, countryName: countries.find((c) => c.code === profile.country)?.name ?? null };
}

export const meta: Route.MetaFunction = (args) =>
  args.data
    ? routeMeta(args, {
        title: "account:member.metaTitle",
        description: "account:member.metaDescription",
        values: { name: args.data.profile.displayName },
        image: args.data.profile.photoUrl ?? undefined,
      })
    : routeMeta(args, {
        title: "common:errors.itemNotFoundTitle",
        description: "common:errors.itemNotFound",
        noIndex: true,
        noAlternates: true,
      });

export default function MemberPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("account");
  const locale = i18n.language === "en" ? "en" : "fr";
  const { profile, countryName } = loaderData;
  const place = [profile.city, countryName].filter(Boolean).join(", ");
  const times = (["best10k", "bestHalf", "bestMarathon"] as const).filter((k) => profile[k]);
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-6 sm:py-10">
      <header className="flex flex-col items-center gap-4 text-center sm:flex-row sm:text-left">
        <img
          src={profile.photoUrl ?? USER_FALLBACK_IMAGE}
          alt=""
          width={112}
          height={112}
          className="h-28 w-28 rounded-full border border-slate-200 bg-slate-100 object-cover"
        />
        <div>
          <h1 className="font-bold text-3xl text-ink-900">{profile.displayName}</h1>
          {place && (
            <p className="mt-1 flex items-center justify-center gap-1 text-ink-700 sm:justify-start">
              <MapPin className="h-4 w-4" aria-hidden="true" />
              {place}
            </p>
          )}
          <p className="mt-1 text-ink-500 text-sm">
            {t("member.since", {
              date: new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "fr-FR", {
                month: "long",
                year: "numeric",
                timeZone: "Europe/Paris",
              }).format(new Date(profile.memberSince)),
            })}
          </p>
        </div>
      </header>

      {profile.sports.length > 0 && (
        <ul className="mt-6 flex flex-wrap justify-center gap-2 sm:justify-start" aria-label={t("fields.sports")}>
          {profile.sports.map((key) => {
            const sport = SPORTS.find((s) => s.key === key);
            return sport ? (
              <li key={key} className="rounded-full bg-brand-50 px-3 py-1 font-medium text-brand-700 text-sm">
                {sport[locale]}
              </li>
            ) : null;
          })}
        </ul>
      )}

      <div className="mt-8 space-y-6">
        <StatsFigures stats={profile.stats} locale={locale} />
        <BadgeGrid badges={loaderData.badges} locale={locale} />
      </div>

      {times.length > 0 && (
        <section aria-labelledby="member-times" className="mt-8">
          <h2 id="member-times" className="font-semibold text-ink-900 text-xl">
            {t("profile.bestTimes")}
          </h2>
          <dl className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-3">
            {times.map((key) => (
              <div key={key} className="rounded-xl border border-slate-200 bg-white p-3">
                <dt className="text-ink-500 text-sm">{t(`fields.${key}`)}</dt>
                <dd className="font-bold text-2xl text-ink-900 tabular-nums">{formatRaceTime(profile[key] ?? 0)}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}

      {profile.presentation && (
        <section aria-labelledby="member-about" className="mt-8">
          <h2 id="member-about" className="font-semibold text-ink-900 text-xl">
            {t("fields.presentation")}
          </h2>
          <p className="mt-2 whitespace-pre-line text-ink-700">{profile.presentation}</p>
        </section>
      )}
      {profile.objectives && (
        <section aria-labelledby="member-goals" className="mt-8">
          <h2 id="member-goals" className="font-semibold text-ink-900 text-xl">
            {t("fields.objectives")}
          </h2>
          <p className="mt-2 whitespace-pre-line text-ink-700">{profile.objectives}</p>
        </section>
      )}
    </article>
  );
}
