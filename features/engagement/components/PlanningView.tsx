import { format } from "date-fns";
import { CalendarDays, Copy, Link2, Mountain, Ruler, Trophy } from "lucide-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { apiFetch } from "../../../shared/api-client.ts";
import type { Locale } from "../../../shared/constants.ts";
import { dateFnsLocale, formatLongDate, toCalendarDate } from "../../../shared/dates.ts";
import {
  distanceBesideName,
  formatDistance,
  formatDuration,
  formatElevation,
  formatNumber,
} from "../../../shared/format.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { Calendar } from "../../../shared/ui/Calendar.tsx";
import { INPUT_CLASS, PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import type { CalendarEntry, CalendarResponse, CalendarTotals } from "../engagement.contract.ts";
import { feedLinks } from "./feed-links.ts";

const CARD = "rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5";

const STATUS_STYLE: Record<CalendarEntry["shown"], string> = {
  planned: "bg-sky-100 text-sky-900",
  registered: "bg-emerald-100 text-emerald-900",
  done: "bg-slate-200 text-slate-800",
  dns: "bg-amber-100 text-amber-900",
};

function TotalsRow({ totals, locale }: { totals: CalendarTotals; locale: Locale }) {
  const { t } = useTranslation("engagement");
  return (
    <span className="flex flex-wrap gap-x-3 gap-y-0.5 text-ink-700 text-sm">
      <span>{t("planning.races", { count: totals.races })}</span>
      <span>{formatDistance(totals.distance, locale, { maximumFractionDigits: 0 })}</span>
      <span>{formatElevation(totals.elevationGain, locale)}</span>
    </span>
  );
}

/** The totals of a year of the planning (zero when it holds no race). */
function yearTotals(data: CalendarResponse, year: string): CalendarTotals {
  return data.years.find((y) => y.year === year) ?? { races: 0, distance: 0, elevationGain: 0 };
}

/**
 * The season at a glance: a month grid with the race days, the totals of the year it shows (the
 * next race's at first, then the one the member moves to), the list by month.
 */
export function PlanningView({
  data,
  feedUrl,
  locale,
  today,
}: {
  data: CalendarResponse;
  feedUrl: string | null;
  locale: Locale;
  today: string;
}) {
  const { t } = useTranslation("engagement");
  const byDay = useMemo(() => {
    const days = new Map<string, CalendarEntry[]>();
    for (const entry of data.entries) {
      const list = days.get(entry.event.startDate) ?? [];
      list.push(entry);
      days.set(entry.event.startDate, list);
    }
    return days;
  }, [data.entries]);
  const next = data.entries.find((e) => !e.past);
  const firstMonth = toCalendarDate((next ?? data.entries[0])?.event.startDate ?? today) ?? new Date();
  const [year, setYear] = useState(() => String(firstMonth.getFullYear()));
  const shownYear = yearTotals(data, year);
  const months = new Map(data.months.map((m) => [m.month, m]));
  const dfLocale = dateFnsLocale(locale);

  if (!data.entries.length) {
    return (
      <div className={CARD}>
        <p className="text-ink-700">{t("planning.empty")}</p>
        <Link to={pagePath("home", locale)} className={`${PRIMARY_BUTTON} mt-4 inline-flex`}>
          {t("planning.find")}
        </Link>
        <FeedBox url={feedUrl} />
      </div>
    );
  }

  let shownMonth = "";
  return (
    <div className="space-y-6" data-testid="planning">
      <section aria-labelledby="totals-heading" aria-live="polite" className={CARD}>
        <h2 id="totals-heading" className="font-bold text-ink-900 text-lg">
          {t("planning.totals")} {year}
        </h2>
        <dl className="mt-3 grid grid-cols-3 gap-2 text-center" data-testid="planning-year-totals">
          {[
            { icon: Trophy, label: t("planning.racesLabel"), value: formatNumber(shownYear.races, locale) },
            {
              icon: Ruler,
              label: t("planning.distance"),
              value: formatDistance(shownYear.distance, locale, { maximumFractionDigits: 0 }),
            },
            { icon: Mountain, label: t("planning.elevation"), value: formatElevation(shownYear.elevationGain, locale) },
          ].map(({ icon: Icon, label, value }) => (
            <div key={label} className="rounded-xl bg-brand-50 px-2 py-3">
              <dt className="flex items-center justify-center gap-1 text-ink-700 text-xs">
                <Icon className="size-3.5" aria-hidden="true" />
                {label}
              </dt>
              <dd className="mt-1 font-extrabold text-base text-ink-900 sm:text-xl">{value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <div className="grid gap-6 lg:grid-cols-[20rem_minmax(0,1fr)]">
        <section aria-labelledby="calendar-heading" className={CARD}>
          <h2 id="calendar-heading" className="mb-3 flex items-center gap-2 font-bold text-ink-900 text-lg">
            <CalendarDays className="size-5 text-brand-700" aria-hidden="true" />
            {t("planning.calendar")}
          </h2>
          <Calendar
            defaultActiveStartDate={firstMonth}
            // The totals follow the year shown (months and years; a decade or century changes nothing).
            onActiveStartDateChange={(start, view) => {
              if (view === "month" || view === "year") setYear(String(start.getFullYear()));
            }}
            aria-label={t("planning.calendar")}
            tileClassName={(day) => (byDay.has(format(day, "yyyy-MM-dd")) ? "calendar-marked" : null)}
            tileContent={(day) => {
              const entries = byDay.get(format(day, "yyyy-MM-dd"));
              if (!entries) return null;
              return (
                <>
                  <span aria-hidden="true" className="mx-auto mt-0.5 block size-1.5 rounded-full bg-brand-700" />
                  <span className="sr-only">{t("planning.dayHas", { count: entries.length })}</span>
                </>
              );
            }}
          />
        </section>

        <section aria-labelledby="list-heading" className="min-w-0">
          <h2 id="list-heading" className="mb-3 font-bold text-ink-900 text-lg">
            {t("planning.list")}
          </h2>
          <ol className="space-y-2" data-testid="planning-list">
            {data.entries.map((entry) => {
              const month = entry.event.startDate.slice(0, 7);
              const header = month !== shownMonth ? months.get(month) : undefined;
              shownMonth = month;
              const date = toCalendarDate(entry.event.startDate);
              return (
                <li key={entry.id}>
                  {header && (
                    <div
                      className="mt-4 mb-2 flex flex-wrap items-baseline justify-between gap-2 border-slate-200 border-b pb-1 first:mt-0"
                      data-testid="planning-month"
                    >
                      <h3 className="font-bold text-ink-900 capitalize">
                        {date ? format(date, "LLLL yyyy", { locale: dfLocale }) : month}
                      </h3>
                      <TotalsRow totals={header} locale={locale} />
                    </div>
                  )}
                  <article className="flex gap-3 rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
                    <time
                      dateTime={entry.event.startDate}
                      className="flex w-12 shrink-0 flex-col items-center rounded-lg bg-brand-50 py-1 text-brand-700 leading-tight"
                    >
                      {date && (
                        <>
                          <span className="font-semibold text-[11px] uppercase">
                            {format(date, "EEE", { locale: dfLocale })}
                          </span>
                          <span className="font-extrabold text-ink-900 text-lg">{format(date, "d")}</span>
                        </>
                      )}
                    </time>
                    <div className="min-w-0 flex-1">
                      <p className="font-bold text-ink-900 leading-snug">
                        <Link to={pagePath("event", locale, { slug: entry.event.slug })} className="hover:underline">
                          {entry.event.name}
                        </Link>
                      </p>
                      <p className="text-ink-700 text-sm">
                        {[
                          entry.course.name,
                          // "Le 10 km" already says its distance.
                          distanceBesideName(entry.course.name, entry.course.distance, locale),
                          entry.course.elevationGain ? formatElevation(entry.course.elevationGain, locale) : null,
                          entry.event.city,
                        ]
                          .filter(Boolean)
                          .join(" · ")}
                      </p>
                      <p className="mt-1 flex flex-wrap items-center gap-2 text-xs">
                        <span className={`rounded-full px-2 py-0.5 font-semibold ${STATUS_STYLE[entry.shown]}`}>
                          {t(`plan.statuses.${entry.shown}`)}
                        </span>
                        {entry.event.cancelled && (
                          <span className="rounded-full bg-red-100 px-2 py-0.5 font-semibold text-red-800">
                            {t("planning.cancelled")}
                          </span>
                        )}
                        {entry.targetTime ? (
                          <span className="text-ink-700">
                            {t("planning.target", { time: formatDuration(entry.targetTime, locale) })}
                          </span>
                        ) : null}
                        <span className="text-ink-500">{formatLongDate(entry.event.startDate, locale)}</span>
                      </p>
                      {entry.past && entry.status !== "dns" && (
                        <p className="mt-1 text-ink-700 text-xs">
                          {t("planning.past")}{" "}
                          <Link
                            to={`${pagePath("results", locale)}?course=${entry.courseId}`}
                            className="font-semibold text-brand-700 underline underline-offset-2"
                          >
                            {t("results:planning.invite")}
                          </Link>
                        </p>
                      )}
                    </div>
                  </article>
                </li>
              );
            })}
          </ol>
        </section>
      </div>
      <div className={CARD}>
        <FeedBox url={feedUrl} />
      </div>
    </div>
  );
}

const APP_LINK =
  "inline-flex min-h-10 items-center gap-1.5 rounded-full border border-slate-300 bg-white px-3 py-1.5 font-semibold text-ink-900 text-sm hover:border-brand-600 hover:text-brand-700";

/** The feed added to a calendar app in one click: Google, Apple (webcal://), Outlook. */
function FeedApps({ url }: { url: string }) {
  const { t } = useTranslation("engagement");
  const links = feedLinks(url, t("ics.name"));
  const newTab = (
    <>
      {" "}
      <span className="sr-only">{t("planning.newTab")}</span>
    </>
  );
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2" data-testid="planning-feed-apps">
      <span className="text-ink-700 text-sm">{t("planning.feedAddTo")}</span>
      <a href={links.google} target="_blank" rel="noopener noreferrer" className={APP_LINK}>
        {t("planning.feedGoogle")}
        {newTab}
      </a>
      <a href={links.webcal} className={APP_LINK}>
        {t("planning.feedApple")}
      </a>
      <a href={links.outlook} target="_blank" rel="noopener noreferrer" className={APP_LINK}>
        {t("planning.feedOutlook")}
        {newTab}
      </a>
    </div>
  );
}

/** The private iCalendar address: create it, copy it, replace it, add it to a calendar app. */
function FeedBox({ url: initial }: { url: string | null }) {
  const { t } = useTranslation("engagement");
  const [url, setUrl] = useState(initial);
  const [busy, setBusy] = useState(false);
  const reset = async () => {
    setBusy(true);
    try {
      const response = await apiFetch("/api/user/calendar/feed", { method: "POST", body: "{}" });
      if (!response.ok) throw new Error(String(response.status));
      const answer = (await response.json()) as { url: string };
      if (url) showToast("success", t("planning.feedResetDone"));
      setUrl(answer.url);
    } catch {
      showToast("error", t("plan.failed"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="feed-heading" className="mt-4 first:mt-0" data-testid="planning-feed">
      <h2 id="feed-heading" className="flex items-center gap-2 font-bold text-ink-900 text-lg">
        <Link2 className="size-5 text-brand-700" aria-hidden="true" />
        {t("planning.feedHeading")}
      </h2>
      <p className="mt-1 text-ink-700 text-sm">{t("planning.feedText")}</p>
      {url ? (
        <>
          <div className="mt-3 flex flex-col gap-2 sm:flex-row">
            <label className="sr-only" htmlFor="planning-feed-url">
              {t("planning.feedLabel")}
            </label>
            <input id="planning-feed-url" readOnly value={url} className={`${INPUT_CLASS} flex-1 font-mono text-xs`} />
            <button
              type="button"
              className={SECONDARY_BUTTON}
              onClick={() => {
                void navigator.clipboard?.writeText(url).then(() => showToast("success", t("planning.copied")));
              }}
            >
              <Copy className="size-4" aria-hidden="true" />
              {t("planning.copy")}
            </button>
            <button type="button" className={SECONDARY_BUTTON} disabled={busy} onClick={() => void reset()}>
              {t("planning.feedReset")}
            </button>
          </div>
          <FeedApps url={url} />
        </>
      ) : (
        <button type="button" className={`${PRIMARY_BUTTON} mt-3`} disabled={busy} onClick={() => void reset()}>
          {t("planning.feedCreate")}
        </button>
      )}
    </section>
  );
}
