import { Medal } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Locale } from "../../../shared/constants.ts";
import { formatCompactDate } from "../../../shared/dates.ts";
import { formatDistance, formatRaceTime } from "../../../shared/format.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { type CourseResults, type ResultRow, type ResultView, timesOf } from "../results.contract.ts";

const MEDAL_COLOURS = ["text-amber-500", "text-slate-400", "text-orange-700"] as const;

/** The rank that counts in the view shown (overall, the runner's sex, their category). */
function viewRank(row: ResultRow, view: ResultView): number | null {
  if (view === "men" || view === "women") return row.sexRank;
  if (view === "category") return row.categoryRank;
  return row.rank;
}

/** "Trail des Crêtes · 31,2 km · 15/03/26": the distance left out when the name says it already ("10 km"). */
export function courseLabel(course: CourseResults["course"], locale: Locale): string {
  const distance = course.distance ? formatDistance(course.distance, locale, { maximumFractionDigits: 3 }) : null;
  const squeeze = (text: string) => text.replace(/\s+/g, "").toLowerCase();
  const said = distance !== null && squeeze(course.name).includes(squeeze(distance));
  return [course.name, said ? null : distance, formatCompactDate(course.date, locale)].filter(Boolean).join(" · ");
}

/**
 * One page of a course's results. The caption names the course (distance, day) and the time the
 * ranking follows; the time column shows that time and says which it is, the other time (when the
 * line has both) comes under it, smaller and named; the pace is read from the time shown. Podium
 * lines carry a medal and its words; lines claimed by members with a public profile link to it.
 */
export function ResultsTable({
  data,
  view,
  locale,
  actions,
  claimControl,
  highlight,
}: {
  data: CourseResults;
  view: ResultView;
  locale: Locale;
  /** The last column's content for a line (the organisers' deletion), or no such column. */
  actions?: (row: ResultRow) => ReactNode;
  /** Under the line's name: the member's "C'est moi", or their way back (no column of its own, narrow screens). */
  claimControl?: (row: ResultRow) => ReactNode;
  /** Lines set apart (the member's own): their note under the name. */
  highlight?: (row: ResultRow) => string | null;
}) {
  const { t } = useTranslation("results");
  const basis = data.timeBasis;
  const other = basis === "net" ? "official" : "net";
  const withOther = data.rows.some((row) => timesOf(row, basis).other !== null);
  const { course } = data;
  return (
    <table className="w-full border-collapse text-left text-sm" data-testid="results-table">
      <caption className="px-2 pb-2 text-left text-ink-700 text-xs sm:px-0">
        <span className="block font-semibold text-ink-900 text-sm" data-testid="results-course">
          {courseLabel(course, locale)}
        </span>
        {t(`times.rankedBy.${basis}`)}
        {withOther && ` ${t(`times.secondary.${basis}`)}`}
      </caption>
      <thead>
        <tr className="border-slate-200 border-b text-ink-700 text-xs uppercase tracking-wide">
          <th scope="col" className="px-2 py-2">
            {view === "general"
              ? t("columns.rank")
              : view === "category"
                ? t("columns.categoryRank")
                : t("columns.sexRank")}
          </th>
          <th scope="col" className="hidden px-2 py-2 sm:table-cell">
            {t("columns.bib")}
          </th>
          <th scope="col" className="px-2 py-2">
            {t("columns.name")}
          </th>
          <th scope="col" className="hidden px-2 py-2 sm:table-cell">
            {t("columns.club")}
          </th>
          <th scope="col" className="hidden px-2 py-2 sm:table-cell">
            {t("columns.category")}
          </th>
          <th scope="col" className="px-2 py-2 text-right" data-testid="time-header">
            {t(`times.${basis}`)}
          </th>
          <th scope="col" className="hidden px-2 py-2 text-right sm:table-cell">
            {t("columns.pace")}
          </th>
          {actions && (
            <th scope="col" className="px-2 py-2">
              <span className="sr-only">{t("columns.actions")}</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {data.rows.map((row) => {
          const rank = row.status === "finished" ? viewRank(row, view) : null;
          const podium = rank !== null && rank <= 3 ? rank : null;
          const note = highlight?.(row) ?? null;
          const times = timesOf(row, basis);
          return (
            <tr
              key={row.id}
              className={`border-slate-100 border-b ${podium ? "bg-amber-50/70" : ""} ${note ? "outline outline-2 outline-brand-600" : ""}`}
              data-testid="result-row"
            >
              <td className="whitespace-nowrap px-2 py-2 font-semibold tabular-nums">
                {podium ? (
                  <span className="inline-flex items-center gap-1">
                    <Medal className={`size-4 ${MEDAL_COLOURS[podium - 1]}`} aria-hidden="true" />
                    <span>{rank}</span>
                    <span className="sr-only">{t(`podium.${podium as 1 | 2 | 3}`)}</span>
                  </span>
                ) : rank !== null ? (
                  rank
                ) : (
                  <span className="font-normal text-ink-700 text-xs">{t(`status.${row.status}`)}</span>
                )}
              </td>
              <td className="hidden px-2 py-2 tabular-nums sm:table-cell">{row.bib}</td>
              <td className="px-2 py-2">
                {row.memberSlug ? (
                  <a
                    href={pagePath("member", locale, { slug: row.memberSlug })}
                    className="font-semibold text-brand-700 underline underline-offset-2"
                  >
                    {row.name}
                  </a>
                ) : (
                  <span className="font-semibold text-ink-900">{row.name}</span>
                )}
                {row.source === "manual" && <span className="ml-1 text-ink-500 text-xs">({t("manual.badge")})</span>}
                {/* On a phone the bib, club and category fold under the name. */}
                <span className="block text-ink-500 text-xs sm:hidden">
                  {[row.bib ? `#${row.bib}` : null, row.club, row.category].filter(Boolean).join(" · ")}
                </span>
                {note && <span className="block font-semibold text-brand-800 text-xs">{note}</span>}
                {claimControl?.(row)}
              </td>
              <td className="hidden px-2 py-2 text-ink-700 sm:table-cell">{row.club}</td>
              <td className="hidden px-2 py-2 text-ink-700 sm:table-cell">{row.category}</td>
              <td className="whitespace-nowrap px-2 py-2 text-right tabular-nums">
                {times.shown !== null ? formatRaceTime(times.shown / 1000) : ""}
                {times.other !== null && (
                  <span className="block text-ink-500 text-xs" data-testid="other-time">
                    {t("times.other", { label: t(`times.short.${other}`), time: formatRaceTime(times.other / 1000) })}
                  </span>
                )}
              </td>
              <td className="hidden whitespace-nowrap px-2 py-2 text-right text-ink-700 tabular-nums sm:table-cell">
                {row.paceSPerKm !== null ? formatRaceTime(row.paceSPerKm) : ""}
              </td>
              {actions && <td className="px-2 py-1 text-right">{actions(row)}</td>}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
