import { Trophy } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import {
  type Locale,
  RANKING_ORDERS,
  RANKING_PERIODS,
  type RankingOrder,
  type RankingPeriod,
} from "../../../shared/constants.ts";
import { formatDistance, formatElevation, formatNumber } from "../../../shared/format.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import type { Ranking, RankingEntry } from "../community.contract.ts";
import { MemberAvatar } from "./MemberAvatar.tsx";

/** The URL of a ranking view: the page reads `period`, `order` and `page` from its query string. */
export type RankingHref = (view: { period: RankingPeriod; order: RankingOrder; page?: number }) => string;

const CHIP =
  "inline-flex min-h-11 shrink-0 items-center whitespace-nowrap rounded-full border px-3 py-1.5 font-medium text-sm";
const CHIP_ON = `${CHIP} border-brand-700 bg-brand-700 text-white`;
const CHIP_OFF = `${CHIP} border-slate-300 bg-white text-ink-700 hover:border-brand-600 hover:text-ink-900`;

export function rankingValue(entry: RankingEntry, order: RankingOrder, locale: Locale): string {
  if (order === "distance") return formatDistance(entry.distance, locale, { maximumFractionDigits: 1 });
  if (order === "elevation") return formatElevation(entry.elevation, locale);
  return formatNumber(entry.races, locale);
}

function Switches<T extends string>({
  label,
  values,
  current,
  text,
  href,
}: {
  label: string;
  values: readonly T[];
  current: T;
  text: (value: T) => string;
  href: (value: T) => string;
}) {
  return (
    <nav
      aria-label={label}
      className="-mx-3 flex items-center gap-2 overflow-x-auto px-3 pb-1 sm:mx-0 sm:flex-wrap sm:px-0"
    >
      <span className="shrink-0 font-medium text-ink-500 text-sm">{label}</span>
      {values.map((value) => (
        <Link
          key={value}
          to={href(value)}
          className={value === current ? CHIP_ON : CHIP_OFF}
          aria-current={value === current ? "page" : undefined}
          preventScrollReset
        >
          {text(value)}
        </Link>
      ))}
    </nav>
  );
}

function Row({ entry, order, locale, me }: { entry: RankingEntry; order: RankingOrder; locale: Locale; me?: boolean }) {
  const { t } = useTranslation("community");
  return (
    <tr className={me ? "bg-brand-50" : "border-slate-100 border-t"}>
      <td className="w-12 py-2 pr-2 text-center font-bold text-ink-900 tabular-nums">{entry.rank}</td>
      <td className="py-2 pr-2">
        <Link
          to={pagePath("member", locale, { slug: entry.slug })}
          className="flex min-w-0 items-center gap-3 font-medium text-ink-900 hover:text-brand-700"
        >
          <MemberAvatar member={entry} size={36} />
          {/* Whole names, wrapped on narrow screens: an ellipsis would hide who is ranked. */}
          <span className="min-w-0">
            <span className="block break-words">{entry.displayName}</span>
            {entry.city && <span className="block break-words font-normal text-ink-500 text-xs">{entry.city}</span>}
          </span>
        </Link>
      </td>
      <td
        className={`py-2 pr-2 text-right tabular-nums ${order === "races" ? "font-bold" : "text-ink-700 max-sm:hidden"}`}
      >
        {formatNumber(entry.races, locale)}
      </td>
      <td
        className={`whitespace-nowrap py-2 pr-2 text-right tabular-nums max-sm:hidden ${order === "distance" ? "font-bold" : "text-ink-700"}`}
      >
        {formatDistance(entry.distance, locale, { maximumFractionDigits: 1 })}
      </td>
      <td
        className={`whitespace-nowrap py-2 text-right tabular-nums max-sm:hidden ${order === "elevation" ? "font-bold" : "text-ink-700"}`}
      >
        {formatElevation(entry.elevation, locale)}
      </td>
      {order !== "races" && (
        <td className="whitespace-nowrap py-2 text-right font-bold tabular-nums sm:hidden">
          {rankingValue(entry, order, locale)}
        </td>
      )}
      {me && <td className="sr-only">{t("rankings.you")}</td>}
    </tr>
  );
}

/** A ranking with its period and order switches (plain links: it works without JavaScript). */
export function RankingBoard({
  ranking,
  locale,
  href,
  signedIn,
}: {
  ranking: Ranking;
  locale: Locale;
  href: RankingHref;
  signedIn: boolean;
}) {
  const { t } = useTranslation("community");
  const { period, order } = ranking;
  const pages = Math.max(1, Math.ceil(ranking.total / ranking.pageSize));
  const periodText = t(`rankings.periods.${period}`);
  const orderText = t(`rankings.orders.${order}`);
  const meOnPage = ranking.me && ranking.entries.some((e) => e.slug === ranking.me?.slug);
  return (
    <div>
      <div className="flex flex-col gap-3">
        <Switches
          label={t("rankings.period")}
          values={RANKING_PERIODS}
          current={period}
          text={(p) => t(`rankings.periods.${p}`)}
          href={(p) => href({ period: p, order })}
        />
        <Switches
          label={t("rankings.order")}
          values={RANKING_ORDERS}
          current={order}
          text={(o) => t(`rankings.orders.${o}`)}
          href={(o) => href({ period, order: o })}
        />
      </div>

      {ranking.me && !meOnPage && (
        <p className="mt-4 flex items-center gap-2 rounded-xl border border-brand-100 bg-brand-50 p-3 text-ink-900">
          <Trophy className="h-5 w-5 text-brand-700" aria-hidden="true" />
          <span>
            {t("rankings.yourLine", { rank: ranking.me.rank, value: rankingValue(ranking.me, order, locale) })}
          </span>
        </p>
      )}

      {ranking.entries.length === 0 ? (
        <div className="mt-4 rounded-2xl border border-slate-300 border-dashed bg-white p-5 text-center">
          <Trophy className="mx-auto h-8 w-8 text-brand-600" aria-hidden="true" />
          <p className="mt-2 font-semibold text-ink-900">{t("rankings.empty")}</p>
          <p className="mt-1 text-ink-700">{t("rankings.emptyAction")}</p>
          <Link
            to={pagePath("home", locale)}
            className="mt-3 inline-flex min-h-11 items-center rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
          >
            {t("rankings.findRace")}
          </Link>
        </div>
      ) : (
        <div className="mt-4 overflow-hidden rounded-2xl border border-slate-200 bg-white px-3 shadow-sm sm:px-4">
          <table className="w-full table-fixed text-sm sm:text-base" data-testid="ranking-table">
            <caption className="sr-only">{t("rankings.caption", { order: orderText, period: periodText })}</caption>
            <thead>
              <tr className="text-left text-ink-500 text-xs uppercase tracking-wide">
                <th scope="col" className="w-12 py-2 pr-2 text-center">
                  {t("rankings.rank")}
                </th>
                <th scope="col" className="py-2 pr-2">
                  {t("rankings.member")}
                </th>
                <th
                  scope="col"
                  className={`w-16 py-2 pr-2 text-right sm:w-20 ${order === "races" ? "" : "max-sm:hidden"}`}
                >
                  {t("rankings.races")}
                </th>
                <th scope="col" className="w-28 py-2 pr-2 text-right max-sm:hidden">
                  {t("rankings.distance")}
                </th>
                <th scope="col" className="w-28 py-2 text-right max-sm:hidden">
                  {t("rankings.elevation")}
                </th>
                {order !== "races" && (
                  <th scope="col" className="w-24 py-2 text-right sm:hidden">
                    {orderText}
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {ranking.entries.map((entry) => (
                <Row
                  key={entry.slug}
                  entry={entry}
                  order={order}
                  locale={locale}
                  me={entry.slug === ranking.me?.slug}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}

      <div className="mt-3 flex flex-wrap items-center justify-between gap-2 text-ink-500 text-sm">
        <p>
          {ranking.total > 0 && `${t("rankings.total", { count: ranking.total })} · `}
          {t("rankings.publicOnly")}
          {signedIn && !ranking.me && ranking.entries.length > 0 && ` ${t("rankings.notRanked")}`}
        </p>
        {pages > 1 && (
          <nav aria-label={t("rankings.pageOf", { page: ranking.page, pages })} className="flex items-center gap-3">
            {ranking.page > 1 && (
              <Link
                to={href({ period, order, page: ranking.page - 1 })}
                className="font-medium text-brand-700 underline"
              >
                {t("rankings.previous")}
              </Link>
            )}
            <span>{t("rankings.pageOf", { page: ranking.page, pages })}</span>
            {ranking.page < pages && (
              <Link
                to={href({ period, order, page: ranking.page + 1 })}
                className="font-medium text-brand-700 underline"
              >
                {t("rankings.next")}
              </Link>
            )}
          </nav>
        )}
      </div>
    </div>
  );
}
