import { ChevronLeft, ChevronRight, Search, Trash2 } from "lucide-react";
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { callApi } from "../../../shared/api-client.ts";
import type { Locale } from "../../../shared/constants.ts";
import { formatNumber } from "../../../shared/format.ts";
import { loginHref, pagePath } from "../../../shared/i18n/pages.ts";
import { DANGER_BUTTON, INPUT_CLASS, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { useViewer } from "../../identity/components/viewer.tsx";
import type { ClaimAnswer } from "../claims.contract.ts";
import {
  type CourseResults,
  type EventResultsSummary,
  RESULT_VIEWS,
  RESULTS_PAGE_SIZE,
  type ResultRow,
  type ResultView,
} from "../results.contract.ts";
import { ClaimDialog } from "./ClaimDialog.tsx";
import { CLAIM_BUTTON, ClaimPanel } from "./ClaimPanel.tsx";
import { courseLabel, ResultsTable } from "./ResultsTable.tsx";

type Course = EventResultsSummary["courses"][number];
type Notice = { kind: "ok" | "error"; text: string; undo?: { resultId: number; label: string } };

/**
 * One course's results at a time: the course (tabs), the ranking (overall, men, women, a
 * category), a name or bib search and pages of 50, read from GET /api/results/{course}. Podium
 * lines carry a medal and its words; lines claimed by members with a public profile link to it.
 * Signed-in members are offered the lines bearing their name, and any line once they search for
 * theirs: "C'est moi" asks first (ClaimDialog), then the line is theirs or waits for the organiser,
 * and the notice offers to undo it.
 */
export default function ResultsBrowser({
  courses,
  locale,
  canManage = false,
}: {
  courses: readonly Course[];
  locale: Locale;
  /** The edition's owner, organisers and admins: delete a line or a course's imported results. */
  canManage?: boolean;
}) {
  const { t } = useTranslation("results");
  const viewer = useViewer();
  const ids = useId();
  // The course with the most lines first: an imported list rather than one member's own record.
  const [courseId, setCourseId] = useState(
    () =>
      courses.reduce<(typeof courses)[number] | undefined>(
        (best, c) => (!best || c.entries > best.entries ? c : best),
        undefined,
      )?.courseId ?? 0,
  );
  const [view, setView] = useState<ResultView>("general");
  const [category, setCategory] = useState("");
  const [typed, setTyped] = useState("");
  const [query, setQuery] = useState("");
  const [page, setPage] = useState(1);
  const [data, setData] = useState<CourseResults | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [reload, setReload] = useState(0);
  const [claiming, setClaiming] = useState<ResultRow | null>(null);
  const [claimBusy, setClaimBusy] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);

  const categoryShown = view === "category" ? category || data?.categories[0] || "" : "";

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reload` and the viewer re-read the page on purpose
  useEffect(() => {
    if (!courseId || (view === "category" && !categoryShown)) return;
    let live = true;
    const params = new URLSearchParams({ type: view, page: String(page), pageSize: String(RESULTS_PAGE_SIZE) });
    if (view === "category") params.set("category", categoryShown);
    if (query) params.set("q", query);
    setBusy(true);
    callApi<CourseResults>(`/api/results/${courseId}?${params}`).then((answer) => {
      if (!live) return;
      setBusy(false);
      if (answer.ok) {
        setData(answer.data);
        setFailed(false);
      } else setFailed(true);
    });
    return () => {
      live = false;
    };
  }, [courseId, view, categoryShown, query, page, reload, viewer.status]);

  // The edition's organisers hear of claims waiting for them (checked beside the results import).
  const eventId = data?.eventId;
  const [waiting, setWaiting] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `reload` counts again after a change on purpose
  useEffect(() => {
    if (!canManage || !eventId) return;
    let live = true;
    callApi<{ claims: unknown[] }>(`/api/results/event/${eventId}/claims`).then((answer) => {
      if (live && answer.ok) setWaiting(answer.data.claims.length);
    });
    return () => {
      live = false;
    };
  }, [canManage, eventId, reload]);

  const pages = data ? Math.max(1, Math.ceil(data.matching / data.pageSize)) : 1;
  const member = viewer.status === "member";

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setQuery(typed.trim());
    setPage(1);
  };

  /** The confirmed "c'est moi": the line is the member's now, or waits for the organiser. */
  const confirmClaim = async () => {
    if (!claiming) return;
    setClaimBusy(true);
    const answer = await callApi<ClaimAnswer>(`/api/results/${claiming.id}/claim`, { method: "POST" });
    setClaimBusy(false);
    setClaiming(null);
    if (!answer.ok) return setNotice({ kind: "error", text: answer.message ?? t("block.failed") });
    const pending = answer.data.status === "pending";
    setNotice({
      kind: "ok",
      text: pending ? t("claim.pendingDone") : t("claim.done"),
      undo: { resultId: answer.data.id, label: pending ? t("claim.withdraw") : t("claim.undo") },
    });
    setReload((n) => n + 1);
  };

  /** Gives back the member's line, or withdraws their claim waiting on it. */
  const giveBack = useCallback(
    async (resultId: number) => {
      const answer = await callApi<{ withdrawn: boolean }>(`/api/results/${resultId}/claim`, { method: "DELETE" });
      if (answer.ok) {
        setNotice({ kind: "ok", text: answer.data.withdrawn ? t("claim.withdrawn") : t("claim.undone") });
        setReload((n) => n + 1);
      } else setNotice({ kind: "error", text: answer.message ?? t("block.failed") });
    },
    [t],
  );

  // Focusing the field brings it into view.
  const toSearch = () => searchRef.current?.focus();
  // Lines offered to claim: those bearing the member's name, and any line once they searched.
  const claimable = (row: ResultRow) =>
    member && data !== null && !row.claimed && !data.mine && !data.pending && (row.couldBeYou === true || query !== "");

  const removeLine = async (row: ResultRow) => {
    if (!window.confirm(t("manage.confirmLine", { name: row.name }))) return;
    const answer = await callApi<{ deleted: number }>(`/api/results/${row.id}`, { method: "DELETE" });
    if (answer.ok) {
      setNotice({ kind: "ok", text: t("manage.deleted", { count: answer.data.deleted }) });
      setReload((n) => n + 1);
    } else setNotice({ kind: "error", text: answer.message ?? t("block.failed") });
  };

  const courseName = courses.find((c) => c.courseId === courseId)?.name ?? "";
  const removeCourse = async () => {
    const count = data ? data.totals.entries : 0;
    if (!window.confirm(t("manage.confirmCourse", { count, course: courseName }))) return;
    const answer = await callApi<{ deleted: number }>(`/api/results/course/${courseId}`, { method: "DELETE" });
    if (answer.ok) {
      setNotice({ kind: "ok", text: t("manage.deleted", { count: answer.data.deleted }) });
      setReload((n) => n + 1);
    } else setNotice({ kind: "error", text: answer.message ?? t("block.failed") });
  };

  const tab = (active: boolean) =>
    `rounded-full px-3 py-1.5 font-semibold text-sm ${active ? "bg-brand-700 text-white" : "bg-slate-100 text-ink-900 hover:bg-slate-200"}`;

  return (
    <div className="mt-3 space-y-3">
      {courses.length > 1 && (
        <fieldset className="flex flex-wrap gap-2">
          <legend className="sr-only">{t("block.course")}</legend>
          {courses.map((c) => (
            <button
              key={c.courseId}
              type="button"
              className={tab(c.courseId === courseId)}
              aria-pressed={c.courseId === courseId}
              onClick={() => {
                setCourseId(c.courseId);
                setPage(1);
                setCategory("");
                setData(null);
              }}
            >
              {c.name}
            </button>
          ))}
        </fieldset>
      )}
      <div className="flex flex-wrap items-end gap-2">
        <fieldset className="flex flex-wrap gap-1">
          <legend className="sr-only">{t("views.label")}</legend>
          {RESULT_VIEWS.map((v) => (
            <button
              key={v}
              type="button"
              className={tab(v === view)}
              aria-pressed={v === view}
              onClick={() => {
                setView(v);
                setPage(1);
              }}
            >
              {t(`views.${v}`)}
            </button>
          ))}
        </fieldset>
        {view === "category" && data && data.categories.length > 0 && (
          <div>
            <label htmlFor={`${ids}-category`} className="sr-only">
              {t("views.categoryLabel")}
            </label>
            <select
              id={`${ids}-category`}
              className="rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm"
              value={categoryShown}
              onChange={(e) => {
                setCategory(e.target.value);
                setPage(1);
              }}
            >
              {data.categories.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      <form onSubmit={onSearch} className="flex gap-2">
        <label htmlFor={`${ids}-q`} className="sr-only">
          {t("search.label")}
        </label>
        <input
          id={`${ids}-q`}
          ref={searchRef}
          type="search"
          className={`${INPUT_CLASS} py-2`}
          placeholder={t("search.placeholder")}
          value={typed}
          maxLength={80}
          onChange={(e) => setTyped(e.target.value)}
        />
        <button type="submit" className={`${SECONDARY_BUTTON} py-2`}>
          <Search className="size-4" aria-hidden="true" />
          <span className="sr-only sm:not-sr-only">{t("search.submit")}</span>
        </button>
      </form>
      {data && (
        <p className="text-ink-700 text-sm" aria-live="polite">
          {[
            t("search.matching", { count: data.matching, formatted: formatNumber(data.matching, locale) }),
            ...(["dnf", "dns", "dsq"] as const)
              .filter((s) => data.totals[s] > 0 && !query && view === "general")
              .map((s) => t(`totals.${s}`, { count: data.totals[s] })),
          ].join(" · ")}
        </p>
      )}
      {!member && viewer.status === "anonymous" && (
        <p className="text-ink-700 text-sm">
          <a
            className="font-semibold text-brand-700 underline underline-offset-2"
            href={loginHref(locale, typeof window === "undefined" ? "/" : window.location.pathname)}
          >
            {t("claim.signIn")}
          </a>
        </p>
      )}
      {notice && (
        <p
          role={notice.kind === "error" ? "alert" : "status"}
          className={`rounded-lg px-3 py-2 text-sm ${notice.kind === "error" ? "bg-red-50 text-red-800" : "bg-emerald-50 text-emerald-900"}`}
        >
          {notice.text}
          {notice.undo && (
            <button
              type="button"
              className="ml-2 font-semibold underline underline-offset-2"
              onClick={() => notice.undo && giveBack(notice.undo.resultId)}
            >
              {notice.undo.label}
            </button>
          )}
        </p>
      )}
      {waiting > 0 && eventId && (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-amber-900 text-sm">
          <a
            className="font-semibold underline underline-offset-2"
            href={`${pagePath("resultsImport", locale, { id: eventId })}#demandes`}
          >
            {t("review.waiting", { count: waiting })}
          </a>
        </p>
      )}
      {member && data && <ClaimPanel data={data} onClaim={setClaiming} onWithdraw={giveBack} onSearch={toSearch} />}
      {failed && (
        <p role="alert" className="text-red-800 text-sm">
          {t("block.failed")}{" "}
          <button type="button" className="font-semibold underline" onClick={() => setReload((n) => n + 1)}>
            {t("block.retry")}
          </button>
        </p>
      )}
      {data && data.rows.length === 0 && <p className="text-ink-700">{t("search.empty")}</p>}
      {data && data.rows.length > 0 && (
        <section
          className="-mx-4 overflow-x-auto sm:mx-0"
          aria-label={t("block.heading")}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than the screen scrolls by keyboard too
          tabIndex={0}
          aria-busy={busy}
        >
          <ResultsTable
            data={data}
            view={view}
            locale={locale}
            highlight={(row) =>
              data.mine === row.id ? t("claim.mine") : data.pending === row.id ? t("claim.pendingNote") : null
            }
            actions={
              canManage
                ? (row) => (
                    <button
                      type="button"
                      className="rounded-md p-1 text-red-700 hover:bg-red-50"
                      aria-label={t("manage.deleteLine", { name: row.name })}
                      title={t("manage.deleteLine", { name: row.name })}
                      onClick={() => removeLine(row)}
                    >
                      <Trash2 className="size-4" aria-hidden="true" />
                    </button>
                  )
                : undefined
            }
            claimControl={(row) =>
              (data.mine === row.id && row.source === "import") || data.pending === row.id ? (
                <button
                  type="button"
                  className="mt-1 block font-semibold text-ink-700 text-xs underline underline-offset-2"
                  onClick={() => giveBack(row.id)}
                >
                  {data.pending === row.id ? t("claim.withdraw") : t("claim.unclaim")}
                </button>
              ) : claimable(row) ? (
                <button
                  type="button"
                  className={`${CLAIM_BUTTON} mt-1 block`}
                  aria-label={t("claim.label", { name: row.name })}
                  onClick={() => setClaiming(row)}
                  data-testid="claim-result"
                >
                  {t("claim.button")}
                </button>
              ) : null
            }
          />
        </section>
      )}
      {canManage && data && data.totals.entries > 0 && !data.manualOnly && (
        <button type="button" className={`${DANGER_BUTTON} px-3 py-1.5 text-sm`} onClick={removeCourse}>
          <Trash2 className="size-4" aria-hidden="true" />
          {t("manage.deleteCourse", { course: courseName })}
        </button>
      )}
      {claiming && data && (
        <ClaimDialog
          row={claiming}
          course={courseLabel(data.course, locale)}
          basis={data.timeBasis}
          memberName={viewer.user?.displayName ?? ""}
          busy={claimBusy}
          onConfirm={confirmClaim}
          onClose={() => setClaiming(null)}
        />
      )}
      {data && pages > 1 && (
        <nav aria-label={t("pages.label")} className="flex items-center justify-between gap-2">
          <button
            type="button"
            className={`${SECONDARY_BUTTON} px-3 py-1.5`}
            disabled={page <= 1}
            onClick={() => setPage((p) => Math.max(1, p - 1))}
          >
            <ChevronLeft className="size-4" aria-hidden="true" />
            <span className="sr-only sm:not-sr-only">{t("pages.previous")}</span>
          </button>
          <p className="text-ink-700 text-sm">{t("pages.position", { page, pages })}</p>
          <button
            type="button"
            className={`${SECONDARY_BUTTON} px-3 py-1.5`}
            disabled={page >= pages}
            onClick={() => setPage((p) => Math.min(pages, p + 1))}
          >
            <span className="sr-only sm:not-sr-only">{t("pages.next")}</span>
            <ChevronRight className="size-4" aria-hidden="true" />
          </button>
        </nav>
      )}
    </div>
  );
}
