import { Upload } from "lucide-react";
import { type FormEvent, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { apiFetch } from "../../../shared/api-client.ts";
import type { Locale } from "../../../shared/constants.ts";
import { formatLongDate } from "../../../shared/dates.ts";
import { formatDistance, formatDuration, formatElevation } from "../../../shared/format.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { INPUT_CLASS, PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import {
  ACTIVITY_FILES_PER_UPLOAD,
  ACTIVITY_PERIODS,
  ACTIVITY_SPORTS,
  type ActivitiesQuery,
  type ActivitiesResponse,
  type UploadResponse,
} from "../activities.contract.ts";
import { DayInput } from "./DayInput.tsx";
import { formatActivityStart, paceOf } from "./format.ts";

/** /user/activities/{type?}: filters, totals, the list newest first, and the file upload. */
export function ActivitiesList({
  data,
  query,
  type,
  locale,
  stravaAvailable,
}: {
  data: ActivitiesResponse;
  query: ActivitiesQuery;
  /** "activity" (every sport) or one sport. */
  type: string;
  locale: Locale;
  /** Whether this site is set up for Strava (else files only). */
  stravaAvailable: boolean;
}) {
  const { t } = useTranslation("activities");
  const listPath = (sport: string) => pagePath("activities", locale, { type: sport === "" ? "" : sport });
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  const search = (changes: Partial<Record<"period" | "totals" | "page", string>>) => {
    const params = new URLSearchParams({ period: query.period, totals: query.totals, ...changes });
    if (params.get("period") === "all") params.delete("period");
    if (params.get("totals") === "month") params.delete("totals");
    if (params.get("page") === "1") params.delete("page");
    const text = params.toString();
    return text ? `?${text}` : "";
  };

  return (
    <div className="space-y-6">
      <p className="text-ink-700 text-sm">{t("private")}</p>
      <UploadForm locale={locale} />

      <form
        method="get"
        className="flex flex-wrap items-end gap-3 rounded-2xl border border-slate-200 bg-white p-4"
        aria-label={t("list.filters")}
        onSubmit={(event) => {
          // The sport is part of the address (/user/activities/run), the rest a query.
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const sport = String(form.get("sport") ?? "");
          window.location.assign(
            `${listPath(sport)}${search({ period: String(form.get("period") ?? "all"), page: "1" })}`,
          );
        }}
      >
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium text-ink-900">{t("list.sport")}</span>
          <select name="sport" defaultValue={type === "activity" ? "" : type} className={INPUT_CLASS}>
            <option value="">{t("list.allSports")}</option>
            {ACTIVITY_SPORTS.map((sport) => (
              <option key={sport} value={sport}>
                {t(`sports.${sport}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium text-ink-900">{t("list.period")}</span>
          <select name="period" defaultValue={query.period} className={INPUT_CLASS}>
            {ACTIVITY_PERIODS.map((period) => (
              <option key={period} value={period}>
                {t(`periods.${period}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={SECONDARY_BUTTON}>
          {t("list.apply")}
        </button>
      </form>

      <section aria-labelledby="totals-title" className="rounded-2xl border border-slate-200 bg-white p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="totals-title" className="font-semibold text-ink-900 text-lg">
            {t("totals.title")}
          </h2>
          <nav className="flex gap-1 text-sm" aria-label={t("totals.title")}>
            {(["week", "month", "year"] as const).map((unit) => (
              <a
                key={unit}
                href={`${listPath(type === "activity" ? "" : type)}${search({ totals: unit })}`}
                aria-current={query.totals === unit ? "page" : undefined}
                className={`rounded-lg px-2.5 py-1.5 font-medium ${query.totals === unit ? "bg-brand-700 text-white" : "text-ink-700 hover:bg-slate-100"}`}
              >
                {t(`totals.${unit}`)}
              </a>
            ))}
          </nav>
        </div>
        {data.totals.length === 0 ? (
          <p className="mt-3 text-ink-700 text-sm">{t("totals.none")}</p>
        ) : (
          <div className="mt-3">
            <table className="w-full text-left text-sm" data-testid="totals">
              <thead className="text-ink-500">
                <tr>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t(`totals.${query.totals}`)}
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("totals.title")}
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("stats.distance")}
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("stats.time")}
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    {t("stats.elevation")}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.totals.map((total) => (
                  <tr key={total.period}>
                    <th scope="row" className="py-1.5 pr-3 font-medium text-ink-900">
                      {periodLabel(total.period, query.totals, locale, t)}
                    </th>
                    <td className="py-1.5 pr-3">{t("totals.count", { count: total.count })}</td>
                    <td className="py-1.5 pr-3">
                      {formatDistance(total.distance, locale, { maximumFractionDigits: 1 })}
                    </td>
                    <td className="py-1.5 pr-3">{formatDuration(total.movingTime, locale)}</td>
                    <td className="py-1.5">{formatElevation(total.elevationGain, locale)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="list-title">
        <h2 id="list-title" className="font-semibold text-ink-900 text-lg">
          {t("list.count", { count: data.total })}
        </h2>
        {data.activities.length === 0 ? (
          <div className="mt-3 rounded-xl bg-slate-50 p-4 text-ink-700 text-sm">
            <p>{t(stravaAvailable ? "list.empty" : "list.emptyFilesOnly")}</p>
            {stravaAvailable ? (
              <a href={pagePath("stravaActivity", locale)} className={`${SECONDARY_BUTTON} mt-3`}>
                {t("list.connectStrava")}
              </a>
            ) : null}
          </div>
        ) : (
          <ul
            className="mt-3 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white"
            data-testid="activities"
          >
            {data.activities.map((activity) => (
              <li
                key={activity.id}
                className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 p-3 sm:p-4"
              >
                <div className="min-w-0">
                  <a
                    href={pagePath("activity", locale, { id: activity.id })}
                    className="font-semibold text-ink-900 underline-offset-2 hover:underline"
                  >
                    {activity.name}
                  </a>
                  <p className="text-ink-500 text-sm">
                    {t(`sports.${activity.sport}`)} · {formatActivityStart(activity, locale, t("detail.dateUnknown"))}
                    {activity.provider === "strava" ? ` · ${t("list.strava")}` : ""}
                  </p>
                </div>
                <p className="text-ink-700 text-sm tabular-nums">
                  {[
                    formatDistance(activity.distance, locale, { maximumFractionDigits: 2 }),
                    (activity.movingTime ?? activity.elapsedTime)
                      ? formatDuration((activity.movingTime ?? activity.elapsedTime) as number, locale)
                      : "",
                    paceOf(activity.distance, activity.movingTime ?? activity.elapsedTime),
                    activity.elevationGain !== null ? formatElevation(activity.elevationGain, locale) : "",
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </p>
              </li>
            ))}
          </ul>
        )}
        {pages > 1 && (
          <nav className="mt-3 flex justify-between text-sm">
            {query.page > 1 ? (
              <a href={search({ page: String(query.page - 1) })} className={SECONDARY_BUTTON}>
                {t("list.previous")}
              </a>
            ) : (
              <span />
            )}
            {query.page < pages && (
              <a href={search({ page: String(query.page + 1) })} className={SECONDARY_BUTTON}>
                {t("list.next")}
              </a>
            )}
          </nav>
        )}
      </section>
    </div>
  );
}

function periodLabel(
  period: string,
  unit: "week" | "month" | "year",
  locale: Locale,
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  if (unit === "year") return period.slice(0, 4);
  if (unit === "week") return t("totals.weekOf", { date: formatLongDate(period, locale) });
  return new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "fr-FR", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${period}T00:00:00Z`));
}

/** Several GPX, TCX or FIT files at once; each gets its own outcome. */
function UploadForm({ locale: _locale }: { locale: Locale }) {
  const { t } = useTranslation("activities");
  const revalidator = useRevalidator();
  const [sending, setSending] = useState(false);
  const [outcomes, setOutcomes] = useState<UploadResponse["files"]>([]);
  // Files without times: the day is asked for, with the API's words, until it is given.
  const [dateError, setDateError] = useState<string | null>(null);
  const dateInput = useRef<HTMLInputElement>(null);
  const dateId = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const body = new FormData(form);
    if (!(body.getAll("file")[0] as File | undefined)?.size) return;
    setSending(true);
    const response = await apiFetch("/api/upload/activities", { method: "POST", body });
    setSending(false);
    if (!response.ok) {
      const error = (await response.json().catch(() => null)) as {
        error?: { message?: string; field?: string };
      } | null;
      if (error?.error?.field === "date" && error.error.message) {
        setDateError(error.error.message);
        requestAnimationFrame(() => dateInput.current?.focus());
        return;
      }
      return showToast("error", error?.error?.message ?? t("upload.error"));
    }
    const { files } = (await response.json()) as UploadResponse;
    setOutcomes(files);
    setDateError(null);
    form.reset();
    revalidator.revalidate();
  }

  return (
    <form onSubmit={submit} className="rounded-2xl border border-slate-200 bg-white p-4" encType="multipart/form-data">
      <h2 className="font-semibold text-ink-900 text-lg">{t("upload.title")}</h2>
      <p className="mt-1 text-ink-700 text-sm">{t("upload.hint", { max: ACTIVITY_FILES_PER_UPLOAD })}</p>
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium text-ink-900">{t("upload.label")}</span>
          <input type="file" name="file" multiple accept=".gpx,.tcx,.fit" className="text-sm" required />
        </label>
        {dateError !== null && (
          <div className="flex flex-col gap-1 text-sm" data-testid="upload-date">
            <label htmlFor={dateId} className="font-medium text-ink-900">
              {t("upload.dateLabel")}
            </label>
            <DayInput ref={dateInput} id={dateId} invalid describedBy={`${dateId}-error ${dateId}-hint`} />
            <p id={`${dateId}-error`} className="max-w-md text-red-800">
              {dateError}
            </p>
            <p id={`${dateId}-hint`} className="text-ink-500">
              {t("upload.dateHint")}
            </p>
          </div>
        )}
        <button type="submit" className={PRIMARY_BUTTON} disabled={sending}>
          <Upload className="size-4" aria-hidden="true" />
          {sending ? t("upload.sending") : t("upload.send")}
        </button>
      </div>
      {outcomes.length > 0 && (
        <ul className="mt-3 space-y-1 text-sm" aria-live="polite" data-testid="upload-outcomes">
          {outcomes.map((file, i) => (
            <li key={`${file.fileName}-${i}`} className={file.error ? "text-red-800" : "text-emerald-900"}>
              {file.error
                ? t("upload.failed", { name: file.fileName, message: file.error.message })
                : t("upload.imported", { name: file.fileName })}
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
