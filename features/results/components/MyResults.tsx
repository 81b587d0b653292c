import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { callApi } from "../../../shared/api-client.ts";
import type { Locale } from "../../../shared/constants.ts";
import { formatLongDate } from "../../../shared/dates.ts";
import { formatDistance, formatNumber, formatRaceTime } from "../../../shared/format.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import type { MemberClaim } from "../claims.contract.ts";
import type { MemberResult, RecordableCourse } from "../results.contract.ts";
import { ManualResultForm } from "./ManualResultForm.tsx";
import { MyClaims } from "./MyClaims.tsx";

const CARD = "rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5";

const courseLabel = (course: { name: string; distance: number | null }, event: { name: string }, locale: Locale) =>
  [
    event.name,
    course.name,
    course.distance ? formatDistance(course.distance, locale, { maximumFractionDigits: 1 }) : null,
  ]
    .filter(Boolean)
    .join(" · ");

/**
 * The account area's results: the member's claims waiting for an organiser or refused, then each
 * result with its time, pace, rank and "top N %"; hand-recorded
 * ones can be corrected or deleted, claimed ones given back. Past courses of the planning without
 * a result come after, to record (or claim, when their results are online).
 */
export function MyResults({
  results,
  recordable,
  claims = [],
  openCourse,
  locale,
}: {
  results: readonly MemberResult[];
  recordable: readonly RecordableCourse[];
  /** The member's claims waiting for an organiser, or refused. */
  claims?: readonly MemberClaim[];
  /** The course of `?course=`: its form opens at once. */
  openCourse: number | null;
  locale: Locale;
}) {
  const { t } = useTranslation("results");
  const revalidator = useRevalidator();
  const [editing, setEditing] = useState<number | null>(null);
  const [recording, setRecording] = useState<number | null>(
    openCourse && recordable.some((c) => c.id === openCourse && !c.hasResults) ? openCourse : null,
  );
  const [notice, setNotice] = useState<{ kind: "ok" | "error"; text: string } | null>(null);

  const done = (text: string) => {
    setEditing(null);
    setRecording(null);
    setNotice({ kind: "ok", text });
    void revalidator.revalidate();
  };

  const remove = async (result: MemberResult) => {
    const manual = result.source === "manual";
    if (manual && !window.confirm(t("account.confirmDelete", { course: result.course.name }))) return;
    const answer = await callApi<unknown>(manual ? `/api/results/${result.id}` : `/api/results/${result.id}/claim`, {
      method: "DELETE",
    });
    if (answer.ok) done(manual ? t("account.deleted") : t("claim.undone"));
    else setNotice({ kind: "error", text: answer.message ?? t("block.failed") });
  };

  const withdraw = async (claim: MemberClaim) => {
    const answer = await callApi<unknown>(`/api/results/${claim.line.id}/claim`, { method: "DELETE" });
    if (answer.ok) done(t("claim.withdrawn"));
    else setNotice({ kind: "error", text: answer.message ?? t("block.failed") });
  };

  return (
    <div className="space-y-6">
      {notice && (
        <p
          role={notice.kind === "error" ? "alert" : "status"}
          className={`rounded-lg px-3 py-2 text-sm ${notice.kind === "error" ? "bg-red-50 text-red-800" : "bg-emerald-50 text-emerald-900"}`}
        >
          {notice.text}
        </p>
      )}
      <MyClaims claims={claims} locale={locale} onWithdraw={withdraw} />
      <section aria-labelledby="my-results-heading" className={CARD}>
        <h2 id="my-results-heading" className="font-bold text-ink-900 text-lg">
          {t("account.title")}
        </h2>
        {results.length === 0 ? (
          <p className="mt-2 text-ink-700">{t("account.empty")}</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100" data-testid="my-results">
            {results.map((result) => (
              <li key={result.id} className="py-3">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <p className="font-semibold text-ink-900">
                      <a
                        href={`${pagePath("event", locale, { slug: result.event.slug })}#resultats`}
                        className="hover:underline"
                      >
                        {result.event.name}
                      </a>
                    </p>
                    <p className="text-ink-700 text-sm">
                      {[
                        result.course.name,
                        result.course.distance
                          ? formatDistance(result.course.distance, locale, { maximumFractionDigits: 1 })
                          : null,
                        formatLongDate(result.event.date, locale),
                      ]
                        .filter(Boolean)
                        .join(" · ")}
                      {result.source === "manual" && (
                        <span className="ml-2 rounded-full bg-slate-100 px-2 py-0.5 text-ink-700 text-xs">
                          {t("account.manual")}
                        </span>
                      )}
                    </p>
                  </div>
                  <div className="flex gap-2">
                    {result.source === "manual" && (
                      <button
                        type="button"
                        className="rounded-md px-2 py-1 font-semibold text-brand-700 text-sm underline"
                        onClick={() => setEditing(editing === result.id ? null : result.id)}
                      >
                        {t("account.edit")}
                      </button>
                    )}
                    <button
                      type="button"
                      className="rounded-md px-2 py-1 font-semibold text-red-700 text-sm underline"
                      onClick={() => remove(result)}
                    >
                      {result.source === "manual" ? t("account.delete") : t("account.unclaim")}
                    </button>
                  </div>
                </div>
                <dl className="mt-2 grid grid-cols-3 gap-2 text-sm">
                  <div>
                    <dt className="text-ink-500 text-xs">{t(`account.timeBasis.${result.timeBasis}`)}</dt>
                    <dd className="font-bold text-ink-900 tabular-nums">
                      {result.status === "finished" && result.timeMs !== null
                        ? formatRaceTime(result.timeMs / 1000)
                        : t(`status.${result.status}`)}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-ink-500 text-xs">{t("account.pace")}</dt>
                    <dd className="font-bold text-ink-900 tabular-nums">
                      {result.paceSPerKm !== null && result.status === "finished"
                        ? t("account.paceValue", { pace: formatRaceTime(result.paceSPerKm) })
                        : "—"}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-ink-500 text-xs">{t("account.rank")}</dt>
                    <dd className="font-bold text-ink-900 tabular-nums">
                      {result.rank === null
                        ? t("account.noRank")
                        : result.finishers
                          ? t("account.rankOf", {
                              rank: formatNumber(result.rank, locale),
                              finishers: formatNumber(result.finishers, locale),
                            })
                          : t("account.rankAlone", { rank: formatNumber(result.rank, locale) })}
                      {result.percentile !== null && (
                        <span className="ml-1 rounded-full bg-brand-50 px-2 py-0.5 font-semibold text-brand-700 text-xs">
                          {t("account.top", { percent: result.percentile })}
                        </span>
                      )}
                    </dd>
                  </div>
                </dl>
                {editing === result.id && (
                  <div className="mt-3">
                    <ManualResultForm
                      course={{ id: result.course.id, label: courseLabel(result.course, result.event, locale) }}
                      editing={result.id}
                      initial={{ status: result.status, timeMs: result.timeMs, rank: result.rank }}
                      onDone={() => done(t("form.saved"))}
                      onCancel={() => setEditing(null)}
                    />
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      {recordable.length > 0 && (
        <section aria-labelledby="to-record-heading" className={CARD}>
          <h2 id="to-record-heading" className="font-bold text-ink-900 text-lg">
            {t("account.toRecord")}
          </h2>
          <ul className="mt-3 divide-y divide-slate-100" data-testid="recordable-courses">
            {recordable.map((course) => (
              <li key={course.id} className="py-3">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <div className="min-w-0">
                    <p className="font-semibold text-ink-900">{course.event.name}</p>
                    <p className="text-ink-700 text-sm">
                      {course.name} · {formatLongDate(course.event.date, locale)}
                    </p>
                  </div>
                  {course.hasResults ? (
                    <a
                      href={`${pagePath("event", locale, { slug: course.event.slug })}#resultats`}
                      className="font-semibold text-brand-700 text-sm underline underline-offset-2"
                      title={t("account.hasResults")}
                    >
                      {t("account.claimThis")}
                    </a>
                  ) : (
                    <button
                      type="button"
                      className="rounded-md border border-brand-700 px-3 py-1.5 font-semibold text-brand-700 text-sm"
                      onClick={() => setRecording(recording === course.id ? null : course.id)}
                      aria-expanded={recording === course.id}
                    >
                      {t("account.recordThis")}
                    </button>
                  )}
                </div>
                {recording === course.id && (
                  <div className="mt-3">
                    <ManualResultForm
                      course={{ id: course.id, label: courseLabel(course, course.event, locale) }}
                      onDone={() => done(t("form.saved"))}
                      onCancel={() => setRecording(null)}
                    />
                  </div>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
