import { useTranslation } from "react-i18next";
import type { Locale } from "../../../shared/constants.ts";
import { formatLongDate } from "../../../shared/dates.ts";
import { formatElevation, formatKm, formatNumber, formatRaceTime } from "../../../shared/format.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import type { UserStats } from "../../accounts/accounts.contract.ts";
import type { MemberBadge } from "../badges.contract.ts";
import { BadgeIcon } from "./BadgeIcon.tsx";

const CARD = "rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5";

/** The stats of spec section 3 as figures: "1 234,5 km", "D+ 12 340 m". */
export function StatsFigures({
  stats,
  locale,
  heading = true,
}: {
  stats: UserStats;
  locale: Locale;
  heading?: boolean;
}) {
  const { t } = useTranslation("badges");
  const km = (value: number) => formatKm(value, locale, { maximumFractionDigits: 1 });
  const items = [
    { key: "races", value: formatNumber(stats.races, locale) },
    { key: "totalDistance", value: km(stats.totalDistance) },
    { key: "totalElevation", value: formatElevation(stats.totalElevation, locale) },
    { key: "maxDistance", value: km(stats.maxDistance) },
    { key: "badges", value: formatNumber(stats.badges, locale) },
    { key: "upcomingRaces", value: formatNumber(stats.upcomingRaces, locale) },
  ] as const;
  return (
    <section aria-labelledby="stats-figures-heading" className={CARD} data-testid="member-stats">
      <h2 id="stats-figures-heading" className={heading ? "font-bold text-ink-900 text-lg" : "sr-only"}>
        {t("stats.heading")}
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-3">
        {items.map((item) => (
          <div key={item.key} className="rounded-xl bg-slate-50 px-3 py-3" data-stat={item.key}>
            <dt className="text-ink-700 text-xs">{t(`stats.${item.key}`)}</dt>
            <dd className="mt-1 whitespace-nowrap font-extrabold text-ink-900 text-xl tabular-nums">{item.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Best times (seconds) as "h:mm:ss", the ones known. */
export function BestTimes({
  best,
}: {
  best: { best10k: number | null; bestHalf: number | null; bestMarathon: number | null };
}) {
  const { t } = useTranslation("badges");
  const known = (["best10k", "bestHalf", "bestMarathon"] as const).filter((k) => best[k] !== null);
  if (!known.length) return null;
  return (
    <section aria-labelledby="best-times-heading" className={CARD}>
      <h2 id="best-times-heading" className="font-bold text-ink-900 text-lg">
        {t("best.heading")}
      </h2>
      <dl className="mt-3 grid grid-cols-3 gap-2 text-center">
        {known.map((k) => (
          <div key={k} className="rounded-xl bg-slate-50 px-2 py-3">
            <dt className="text-ink-700 text-xs">{t(`best.${k}`)}</dt>
            <dd className="mt-1 font-extrabold text-ink-900 text-lg tabular-nums">{formatRaceTime(best[k] ?? 0)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The member's badges as a grid of drawn icons with their names (and the race, for finisher badges). */
export function BadgeGrid({ badges, locale }: { badges: readonly MemberBadge[]; locale: Locale }) {
  const { t } = useTranslation("badges");
  return (
    <section aria-labelledby="badges-heading" className={CARD} data-testid="member-badges">
      <div className="flex items-baseline justify-between gap-2">
        <h2 id="badges-heading" className="font-bold text-ink-900 text-lg">
          {t("heading")}
        </h2>
        {badges.length > 0 && <p className="text-ink-700 text-sm">{t("count", { count: badges.length })}</p>}
      </div>
      {badges.length === 0 ? (
        <p className="mt-2 text-ink-700">{t("none")}</p>
      ) : (
        <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
          {badges.map((badge) => {
            const name = locale === "en" ? badge.nameEn : badge.nameFr;
            return (
              <li
                key={badge.code}
                className="flex flex-col items-center gap-1 rounded-xl bg-slate-50 px-2 py-3 text-center"
                data-badge={badge.code}
              >
                <BadgeIcon family={badge.family} figure={badge.figure} />
                <span className="font-semibold text-ink-900 text-sm leading-tight">{name}</span>
                {badge.event ? (
                  <a
                    href={pagePath("event", locale, { slug: badge.event.slug })}
                    className="text-brand-700 text-xs underline underline-offset-2"
                  >
                    {badge.event.name} · {formatLongDate(badge.event.date, locale)}
                  </a>
                ) : (
                  <span className="text-ink-500 text-xs">
                    {t("awarded", { date: formatLongDate(badge.awardedAt.slice(0, 10), locale) })}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
