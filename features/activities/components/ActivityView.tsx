import { ExternalLink, Image, Link2, Medal, Trash2 } from "lucide-react";
import { type FormEvent, lazy, Suspense, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiFetch } from "../../../shared/api-client.ts";
import type { Locale } from "../../../shared/constants.ts";
import { formatLongDate } from "../../../shared/dates.ts";
import { formatDistance, formatElevation, formatPace, formatRaceTime } from "../../../shared/format.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { DANGER_BUTTON, PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import { ElevationChart } from "../../events/components/ElevationChart.tsx";
import type { ActivityDetail } from "../activities.contract.ts";
import { DayInput } from "./DayInput.tsx";
import { formatActivityStart, paceOf } from "./format.ts";
import { PoweredByStrava } from "./StravaPanel.tsx";

// The map (MapLibre) only loads on pages that show one, and only in the browser.
const RaceMap = lazy(() => import("../../maps/components/RaceMap.tsx").then((m) => ({ default: m.RaceMap })));

/** /user/activity/{id}: one activity, its track and numbers, and what the member can make of it. */
export function ActivityView({ initial, locale }: { initial: ActivityDetail; locale: Locale }) {
  const { t } = useTranslation("activities");
  const [activity, setActivity] = useState(initial);
  const [busy, setBusy] = useState(false);
  const time = activity.movingTime ?? activity.elapsedTime;
  const line = activity.points.map(([lng, lat]) => [lng, lat] as [number, number]);

  async function act(action: "link" | "unlink" | "result", courseId?: number) {
    setBusy(true);
    const response = await apiFetch(`/api/user/activity/${activity.id}/${action}`, {
      method: "POST",
      body: JSON.stringify(courseId ? { courseId } : {}),
    });
    setBusy(false);
    const body = (await response.json().catch(() => null)) as {
      activity?: ActivityDetail;
      error?: { message: string };
    } | null;
    if (!response.ok || !body?.activity) return showToast("error", body?.error?.message ?? t("detail.error"));
    setActivity(body.activity);
    await showToast("success", t(action === "result" ? "match.resultDone" : "match.linkedDone"));
  }

  async function remove() {
    if (!window.confirm(t("detail.deleteConfirm"))) return;
    const response = await apiFetch(`/api/user/activity/${activity.id}`, { method: "DELETE" });
    if (!response.ok) return showToast("error", t("detail.error"));
    window.location.assign(pagePath("activities", locale));
  }

  return (
    <article className="space-y-6" data-testid="activity">
      <header className="space-y-1">
        <a href={pagePath("activities", locale)} className="text-brand-700 text-sm underline-offset-2 hover:underline">
          {t("detail.back")}
        </a>
        <h2 className="font-bold text-ink-900 text-xl">{activity.name}</h2>
        <p className="text-ink-500 text-sm">
          {t(`sports.${activity.sport}`)} · {formatActivityStart(activity, locale, t("detail.dateUnknown"))}
        </p>
        {activity.stravaUrl && (
          <div className="flex flex-wrap items-center gap-3 pt-1">
            <PoweredByStrava />
            <a
              href={activity.stravaUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1 font-semibold text-[#C13A00] text-sm underline-offset-2 hover:underline"
            >
              {t("detail.viewOnStrava")}
              <ExternalLink className="size-3.5" aria-hidden="true" />
            </a>
          </div>
        )}
      </header>

      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="activity-stats">
        <Stat
          label={t("stats.distance")}
          value={formatDistance(activity.distance, locale, { maximumFractionDigits: 2 })}
        />
        <Stat label={t("stats.time")} value={time ? formatRaceTime(time) : "—"} />
        <Stat label={t("stats.pace")} value={paceOf(activity.distance, time) || "—"} />
        <Stat
          label={t("stats.elevation")}
          value={activity.elevationGain !== null ? formatElevation(activity.elevationGain, locale) : "—"}
        />
      </dl>

      {activity.startPrecision === "none" && <DateForm id={activity.id} onDated={setActivity} />}

      <CourseActions activity={activity} locale={locale} busy={busy} act={act} />

      {line.length > 1 ? (
        <section className="space-y-4">
          <Suspense fallback={<div className="aspect-[16/10] rounded-xl bg-slate-100 sm:aspect-[2/1]" />}>
            <RaceMap
              label={t("detail.map", { name: activity.name })}
              line={line}
              breaks={activity.breaks}
              className="aspect-[16/10] rounded-xl ring-1 ring-slate-200 sm:aspect-[2/1]"
            />
          </Suspense>
          {activity.profile.length > 1 && (
            <ElevationChart
              profile={activity.profile}
              breaks={activity.profileBreaks}
              name={activity.name}
              distance={activity.distance}
              elevationGain={activity.elevationGain}
              elevationLoss={activity.elevationLoss}
              minElevation={Math.min(...activity.profile.map((p) => p[1]))}
              maxElevation={Math.max(...activity.profile.map((p) => p[1]))}
              locale={locale}
            />
          )}
        </section>
      ) : (
        <p className="rounded-lg bg-slate-50 p-3 text-ink-700 text-sm">{t("detail.noTrack")}</p>
      )}

      {activity.splits.length > 0 && (
        <section aria-labelledby="splits-title">
          <h3 id="splits-title" className="font-semibold text-ink-900">
            {t("detail.splits")}
          </h3>
          <div className="mt-2">
            <table className="w-full text-left text-sm tabular-nums" data-testid="splits">
              <thead className="text-ink-500">
                <tr>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("detail.km")}
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("detail.splitTime")}
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("detail.splitPace")}
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("detail.splitElevation")}
                  </th>
                  {activity.averageHeartRate !== null && (
                    <th scope="col" className="py-1 font-medium">
                      {t("detail.splitHr")}
                    </th>
                  )}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {activity.splits.map((split) => (
                  <tr key={split.km}>
                    <th scope="row" className="py-1 pr-3 font-medium text-ink-900">
                      {new Intl.NumberFormat(locale === "en" ? "en-GB" : "fr-FR").format(split.km)}
                    </th>
                    <td className="py-1 pr-3">{formatRaceTime(split.seconds)}</td>
                    <td className="py-1 pr-3">
                      {split.distance > 0 ? formatPace(split.seconds / (split.distance / 1000)) : ""}
                    </td>
                    <td className="py-1 pr-3">
                      {split.elevationGain !== null ? formatElevation(split.elevationGain, locale) : ""}
                    </td>
                    {activity.averageHeartRate !== null && <td className="py-1">{split.heartRate ?? ""}</td>}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}

      {activity.averageHeartRate !== null && (
        <section aria-labelledby="hr-title">
          <h3 id="hr-title" className="font-semibold text-ink-900">
            {t("detail.heartTitle")}
          </h3>
          <p className="mt-1 text-ink-700 text-sm">
            {t("detail.heartSummary", { avg: activity.averageHeartRate, max: activity.maxHeartRate ?? "—" })}
          </p>
          {activity.heartRate.length > 1 && <HeartRateLine samples={activity.heartRate} />}
        </section>
      )}

      <div className="flex flex-wrap gap-3">
        {line.length > 1 && (
          // The creator is its own page (its renderer and fonts load there only).
          <a
            href={`${pagePath("posterNew", locale)}?activity=${activity.id}`}
            className={SECONDARY_BUTTON}
            rel="nofollow"
            data-testid="make-poster"
          >
            <Image className="size-4" aria-hidden="true" />
            {t("detail.poster")}
          </a>
        )}
        <button type="button" className={DANGER_BUTTON} onClick={remove}>
          <Trash2 className="size-4" aria-hidden="true" />
          {t("detail.delete")}
        </button>
      </div>
    </article>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-3">
      <dt className="text-ink-500 text-xs">{label}</dt>
      <dd className="font-semibold text-ink-900 text-lg tabular-nums">{value}</dd>
    </div>
  );
}

/** The heart rate along the distance, a plain line (the numbers are in the splits table). */
function HeartRateLine({ samples }: { samples: [number, number][] }) {
  const maxX = samples[samples.length - 1]?.[0] || 1;
  const ys = samples.map((s) => s[1]);
  const low = Math.min(...ys) - 5;
  const high = Math.max(...ys) + 5;
  const points = samples.map(
    ([x, y]) => `${((x / maxX) * 1000).toFixed(1)},${(100 - ((y - low) / (high - low)) * 100).toFixed(1)}`,
  );
  return (
    <svg viewBox="0 0 1000 100" className="mt-2 h-24 w-full" preserveAspectRatio="none" aria-hidden="true">
      <polyline
        points={points.join(" ")}
        fill="none"
        stroke="#dc2626"
        strokeWidth="2"
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}

/** The linked course and the result, or the catalogue's proposals ("your race"). */
function CourseActions({
  activity,
  locale,
  busy,
  act,
}: {
  activity: ActivityDetail;
  locale: Locale;
  busy: boolean;
  act: (action: "link" | "unlink" | "result", courseId?: number) => Promise<unknown>;
}) {
  const { t } = useTranslation("activities");
  if (activity.course) {
    return (
      <section className="space-y-3 rounded-2xl border border-brand-200 bg-brand-50 p-4" data-testid="linked-course">
        <p className="flex items-center gap-2 font-semibold text-ink-900">
          <Link2 className="size-4" aria-hidden="true" />
          <a
            href={pagePath("event", locale, { slug: activity.course.eventSlug })}
            className="underline-offset-2 hover:underline"
          >
            {t("match.linked", { course: activity.course.name, event: activity.course.eventName })}
          </a>
        </p>
        {activity.resultId ? (
          <p className="flex items-center gap-2 text-emerald-900 text-sm">
            <Medal className="size-4" aria-hidden="true" />
            {t("match.resultRecorded")}
          </p>
        ) : (
          <div className="flex flex-wrap gap-2">
            <button type="button" className={PRIMARY_BUTTON} disabled={busy} onClick={() => act("result")}>
              <Medal className="size-4" aria-hidden="true" />
              {t("match.result")}
            </button>
            <button type="button" className={SECONDARY_BUTTON} disabled={busy} onClick={() => act("unlink")}>
              {t("match.unlink")}
            </button>
          </div>
        )}
      </section>
    );
  }
  if (activity.matches.length === 0) return null;
  return (
    <section
      className="space-y-3 rounded-2xl border border-amber-200 bg-amber-50 p-4"
      aria-labelledby="match-title"
      data-testid="matches"
    >
      <h3 id="match-title" className="font-semibold text-ink-900">
        {t("match.title")}
      </h3>
      <p className="text-ink-700 text-sm">{t("match.hint")}</p>
      <ul className="space-y-2">
        {activity.matches.map((match) => (
          <li key={match.courseId} className="flex flex-wrap items-center justify-between gap-2">
            <span className="text-ink-900 text-sm">
              {t("match.item", {
                course: match.courseName,
                event: match.eventName,
                date: formatLongDate(match.startDate, locale),
              })}{" "}
              <span className="text-ink-500">
                ({t("match.gap", { distance: formatDistance(match.startGap, locale, { maximumFractionDigits: 1 }) })})
              </span>
            </span>
            <button
              type="button"
              className={SECONDARY_BUTTON}
              disabled={busy}
              onClick={() => act("link", match.courseId)}
            >
              {t("match.link")}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The day of an activity whose file had no time, uploaded before the upload asked for it: until
 * the member gives it, the activity is in no statistics by day and is never offered as a race.
 */
function DateForm({ id, onDated }: { id: number; onDated: (activity: ActivityDetail) => void }) {
  const { t } = useTranslation("activities");
  const inputId = useId();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const date = String(new FormData(event.currentTarget).get("date") ?? "");
    setBusy(true);
    const response = await apiFetch(`/api/user/activity/${id}/date`, {
      method: "POST",
      body: JSON.stringify({ date }),
    });
    setBusy(false);
    const body = (await response.json().catch(() => null)) as {
      activity?: ActivityDetail;
      error?: { message: string };
    } | null;
    if (!response.ok || !body?.activity) return setError(body?.error?.message ?? t("detail.error"));
    setError(null);
    onDated(body.activity);
    await showToast("success", t("detail.dateDone"));
  }

  return (
    <form
      onSubmit={submit}
      className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm"
      data-testid="activity-date"
    >
      <p className="text-amber-950">{t("detail.dateAsk")}</p>
      <div className="flex flex-wrap items-end gap-2">
        <label htmlFor={inputId} className="flex flex-col gap-1 font-medium text-ink-900">
          {t("detail.dateLabel")}
          <DayInput id={inputId} invalid={error !== null} describedBy={error ? `${inputId}-error` : undefined} />
        </label>
        <button type="submit" className={SECONDARY_BUTTON} disabled={busy}>
          {t("detail.dateSave")}
        </button>
      </div>
      {error && (
        <p id={`${inputId}-error`} className="text-red-800">
          {error}
        </p>
      )}
    </form>
  );
}
