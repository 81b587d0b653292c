import { FileUp, Upload } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiFetch } from "../../../../shared/api-client.ts";
import type { Locale } from "../../../../shared/constants.ts";
import { pagePath } from "../../../../shared/i18n/pages.ts";
import { Dialog } from "../../../../shared/ui/Dialog.tsx";
import { CARD } from "../../../../shared/ui/Disclosure.tsx";
import {
  DANGER_BUTTON,
  HINT_CLASS,
  INPUT_CLASS,
  LABEL_CLASS,
  PRIMARY_BUTTON,
  SECONDARY_BUTTON,
} from "../../../../shared/ui/fields.tsx";
import { showToast } from "../../../../shared/ui/lazy-toasts.tsx";
import type { ColumnMapping, ResultField } from "../columns.ts";
import type { ImportErrorBody, ImportProblem, ImportStatus, PreviewResponse } from "../results-import.contract.ts";
import { formatPace, formatTimeMs } from "../times.ts";

type Course = { id: number; name: string; distance: number | null; existingResults: number };
type Props = {
  locale: Locale;
  event: { id: number; name: string; slug: string };
  courses: Course[];
  /** More of the organiser's results work, after the import (the claims to check). */
  children?: ReactNode;
};

/** How often the progress bar asks where the import stands. */
const POLL_MS = 700;

async function errorOf(response: Response): Promise<{ message: string; problems: ImportProblem[] }> {
  const body = (await response.json().catch(() => null)) as ImportErrorBody | null;
  return { message: body?.error?.message ?? response.statusText, problems: body?.problems ?? [] };
}

/**
 * The organiser's import screen: choose the course, upload a file or paste a table, check the
 * preview and correct any column, import; a progress bar follows the background job.
 */
export function ResultsImport({ locale, event, courses, children }: Props) {
  const { t } = useTranslation("results-import");
  const ids = useId();
  const [courseId, setCourseId] = useState<number | null>(courses[0]?.id ?? null);
  const [source, setSource] = useState<"file" | "paste">("file");
  const [pasted, setPasted] = useState("");
  const fileRef = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<PreviewResponse | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping>([]);
  const [busy, setBusy] = useState<"read" | "preview" | "import" | null>(null);
  const [error, setError] = useState<{ message: string; problems: ImportProblem[] } | null>(null);
  const [confirmReplace, setConfirmReplace] = useState(false);
  const [job, setJob] = useState<ImportStatus | null>(null);
  const course = courses.find((c) => c.id === courseId) ?? null;
  const eventHref = pagePath("event", locale, { slug: event.slug });

  // The progress bar: the job's status until it is done or failed.
  useEffect(() => {
    if (!job || job.status === "done" || job.status === "failed") return;
    const timer = setTimeout(async () => {
      const response = await apiFetch(`/api/results/import/${job.id}`);
      if (!response.ok) return setJob({ ...job });
      const next = (await response.json()) as ImportStatus;
      setJob(next);
      if (next.status === "done") await showToast("success", t("import.done", { count: next.totalRows }));
      if (next.status === "failed") await showToast("error", next.error ?? t("job.failed"));
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [job, t]);

  async function read() {
    if (!courseId) return;
    const form = new FormData();
    form.append("courseId", String(courseId));
    const file = fileRef.current?.files?.[0];
    if (source === "file" && file) form.append("file", file);
    else if (source === "paste" && pasted.trim()) form.append("text", pasted);
    else return setError({ message: t("source.empty"), problems: [] });
    setBusy("read");
    setError(null);
    setJob(null);
    try {
      const response = await apiFetch("/api/results/parse", { method: "POST", body: form });
      if (!response.ok) {
        setPreview(null);
        return setError(await errorOf(response));
      }
      const answer = (await response.json()) as PreviewResponse;
      setPreview(answer);
      setMapping(answer.columns.map((c) => c.field));
    } finally {
      setBusy(null);
    }
  }

  async function remap(index: number, field: ResultField | null) {
    if (!preview) return;
    // A field goes to one column only: the column that had it lets it go.
    const next = mapping.map((f, i) => (i === index ? field : f === field ? null : f));
    setMapping(next);
    setBusy("preview");
    try {
      const response = await apiFetch("/api/results/preview", {
        method: "POST",
        body: JSON.stringify({ courseId: preview.courseId, token: preview.token, mapping: next }),
      });
      if (!response.ok) return setError(await errorOf(response));
      setError(null);
      setPreview((await response.json()) as PreviewResponse);
    } finally {
      setBusy(null);
    }
  }

  async function startImport(replace: boolean) {
    if (!preview) return;
    setConfirmReplace(false);
    setBusy("import");
    try {
      const response = await apiFetch("/api/results/import", {
        method: "POST",
        body: JSON.stringify({ courseId: preview.courseId, token: preview.token, mapping, replace }),
      });
      if (response.status === 409) return setConfirmReplace(true);
      if (!response.ok) {
        const failure = await errorOf(response);
        setError(failure);
        return showToast("error", failure.message);
      }
      setError(null);
      setJob((await response.json()) as ImportStatus);
    } finally {
      setBusy(null);
    }
  }

  if (courses.length === 0) {
    return (
      <main className="mx-auto max-w-3xl px-4 py-8">
        <h1 className="font-bold text-2xl text-ink-900">{t("title")}</h1>
        <p className="mt-4 text-ink-700">{t("noCourses")}</p>
      </main>
    );
  }

  const problems = error?.problems.length ? error.problems : (preview?.problems ?? []);
  const problemCount = error?.problems.length ? error.problems.length : (preview?.problemCount ?? 0);
  const running = job !== null && (job.status === "pending" || job.status === "running");
  return (
    <main className="mx-auto max-w-5xl px-4 py-6 sm:py-8" data-testid="results-import">
      <a href={eventHref} className="text-brand-800 text-sm underline">
        {t("back")}
      </a>
      <h1 className="mt-2 font-bold text-2xl text-ink-900 sm:text-3xl">{t("title")}</h1>
      <p className="mt-1 font-semibold text-ink-800">{event.name}</p>
      <p className="mt-2 text-ink-700 text-sm">{t("intro")}</p>

      <section className={`${CARD} mt-5`} aria-labelledby={`${ids}-source`}>
        <h2 id={`${ids}-source`} className="sr-only">
          {t("source.legend")}
        </h2>
        <label htmlFor={`${ids}-course`} className={LABEL_CLASS}>
          {t("course")}
        </label>
        <select
          id={`${ids}-course`}
          className={INPUT_CLASS}
          value={courseId ?? ""}
          onChange={(e) => {
            setCourseId(Number(e.target.value));
            setPreview(null);
            setJob(null);
          }}
        >
          {courses.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>

        <fieldset className="mt-4">
          <legend className={LABEL_CLASS}>{t("source.legend")}</legend>
          <div className="flex flex-wrap gap-4">
            {(["file", "paste"] as const).map((kind) => (
              <label key={kind} className="inline-flex items-center gap-2 text-ink-900">
                <input
                  type="radio"
                  name={`${ids}-kind`}
                  value={kind}
                  checked={source === kind}
                  onChange={() => setSource(kind)}
                  className="h-4 w-4 accent-brand-700"
                />
                {t(`source.${kind}`)}
              </label>
            ))}
          </div>
        </fieldset>

        {source === "file" ? (
          <div className="mt-3">
            <label htmlFor={`${ids}-file`} className={LABEL_CLASS}>
              {t("source.fileLabel")}
            </label>
            <input
              id={`${ids}-file`}
              ref={fileRef}
              type="file"
              accept=".csv,.txt,.tsv,.xlsx,.html,.htm,text/csv,text/html,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              className="block w-full text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-semibold file:text-brand-800"
            />
          </div>
        ) : (
          <div className="mt-3">
            <label htmlFor={`${ids}-paste`} className={LABEL_CLASS}>
              {t("source.pasteLabel")}
            </label>
            <textarea
              id={`${ids}-paste`}
              className={`${INPUT_CLASS} h-40 font-mono text-sm`}
              value={pasted}
              onChange={(e) => setPasted(e.target.value)}
              onPaste={(e) => {
                // A table copied from a page comes as HTML too: keep it, its cells are exact.
                const html = e.clipboardData.getData("text/html");
                if (html && /<t[dhr][\s>]/i.test(html)) {
                  e.preventDefault();
                  setPasted(html);
                }
              }}
              aria-describedby={`${ids}-paste-hint`}
            />
            <p id={`${ids}-paste-hint`} className={HINT_CLASS}>
              {t("source.pasteHint")}
            </p>
          </div>
        )}
        <button type="button" className={`${PRIMARY_BUTTON} mt-4 w-full sm:w-auto`} onClick={read} disabled={!!busy}>
          <FileUp className="h-4 w-4" aria-hidden="true" />
          {busy === "read" ? t("source.reading") : t("source.read")}
        </button>
      </section>

      {error && !error.problems.length && (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 p-3 text-red-800 ring-1 ring-red-200">
          {error.message}
        </p>
      )}

      {preview && (
        <section className={`${CARD} mt-5`} aria-labelledby={`${ids}-preview`} data-testid="results-preview">
          <h2 id={`${ids}-preview`} className="font-bold text-ink-900 text-lg">
            {t("preview.heading")}
          </h2>
          <p className="mt-1 text-ink-700 text-sm">
            {t("preview.rows", { count: preview.rowCount })}
            {preview.headerLine !== null && <> · {t("preview.headerLine", { line: preview.headerLine })}</>}
          </p>
          {preview.existingResults > 0 && (
            <p className="mt-2 text-amber-900 text-sm">{t("preview.existing", { count: preview.existingResults })}</p>
          )}
          <ul className="mt-2 list-disc pl-5 text-ink-700 text-sm">
            {(["rank", "sexRank", "categoryRank", "pace"] as const)
              .filter((k) => preview.computed[k])
              .map((k) => (
                <li key={k}>{t(`preview.computed.${k}`)}</li>
              ))}
            {preview.warnings.map((w) => (
              <li key={w.code}>{w.message}</li>
            ))}
          </ul>

          <h3 className="mt-4 font-semibold text-ink-900">{t("preview.mappingHeading")}</h3>
          <p className={HINT_CLASS}>{t("preview.mappingHint")}</p>
          <div className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {preview.columns.map((column, index) => {
              const title = column.title || t("preview.untitled", { n: index + 1 });
              return (
                <div key={index}>
                  <label htmlFor={`${ids}-col-${index}`} className="block truncate font-medium text-ink-900 text-sm">
                    {title}
                  </label>
                  <select
                    id={`${ids}-col-${index}`}
                    aria-label={t("preview.columnLabel", { title })}
                    className={`${INPUT_CLASS} py-2 text-sm`}
                    value={mapping[index] ?? ""}
                    disabled={busy !== null || running}
                    onChange={(e) => remap(index, (e.target.value || null) as ResultField | null)}
                  >
                    <option value="">{t("preview.ignore")}</option>
                    {preview.fields.map((field) => (
                      <option key={field} value={field}>
                        {t(`fields.${field}`)}
                      </option>
                    ))}
                  </select>
                </div>
              );
            })}
          </div>
          {busy === "preview" && (
            <p className="mt-2 text-ink-500 text-sm" aria-live="polite">
              {t("preview.updating")}
            </p>
          )}

          {problemCount > 0 && (
            <div role="alert" className="mt-4 rounded-lg bg-red-50 p-3 text-red-900 ring-1 ring-red-200">
              <p className="font-semibold">{t("preview.problemsHeading", { count: problemCount })}</p>
              <ul className="mt-1 list-disc pl-5 text-sm">
                {problems.map((p) => (
                  <li key={`${p.code}-${p.line}-${p.column}`}>{p.message}</li>
                ))}
              </ul>
            </div>
          )}

          <p id={`${ids}-first`} className="mt-4 text-ink-700 text-sm">
            {t("preview.first", { count: preview.rows.length })}
          </p>
          <section
            className="mt-2 overflow-x-auto rounded-lg ring-1 ring-slate-200"
            aria-labelledby={`${ids}-first`}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than the screen scrolls by keyboard too
            tabIndex={0}
          >
            <table className="min-w-full text-left text-sm">
              <thead className="bg-slate-50 text-ink-700">
                <tr>
                  {(
                    [
                      "line",
                      "rank",
                      "bib",
                      "name",
                      "sex",
                      "category",
                      "club",
                      "time",
                      "netTime",
                      "pace",
                      "status",
                    ] as const
                  ).map((k) => (
                    <th key={k} scope="col" className="whitespace-nowrap px-2 py-1.5 font-semibold">
                      {t(`table.${k}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.rows.map((row) => (
                  <tr key={row.position} className="border-slate-100 border-t">
                    <td className="px-2 py-1 text-ink-500">{row.line}</td>
                    <td className="px-2 py-1">{row.rank ?? ""}</td>
                    <td className="px-2 py-1">{row.bib ?? ""}</td>
                    <td className="whitespace-nowrap px-2 py-1 font-medium">{row.name}</td>
                    <td className="px-2 py-1">{row.sex ? t(`table.sex${row.sex}`) : ""}</td>
                    <td className="px-2 py-1">{row.category ?? ""}</td>
                    <td className="whitespace-nowrap px-2 py-1">{row.club ?? ""}</td>
                    <td className="px-2 py-1 tabular-nums">{row.timeMs ? formatTimeMs(row.timeMs) : ""}</td>
                    <td className="px-2 py-1 tabular-nums">{row.netTimeMs ? formatTimeMs(row.netTimeMs) : ""}</td>
                    <td className="whitespace-nowrap px-2 py-1 tabular-nums">
                      {row.paceSPerKm ? `${formatPace(row.paceSPerKm)} /km` : ""}
                    </td>
                    <td className="whitespace-nowrap px-2 py-1">{t(`status.${row.status}`)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>

          {job ? (
            <div className="mt-4" aria-live="polite">
              <label htmlFor={`${ids}-progress`} className={LABEL_CLASS}>
                {t("import.progressLabel")}
              </label>
              <progress
                id={`${ids}-progress`}
                className="h-3 w-full accent-brand-700"
                max={Math.max(job.totalRows, 1)}
                value={job.status === "done" ? job.totalRows : job.processedRows}
              />
              <p className="mt-1 text-ink-700 text-sm">
                {job.status === "done"
                  ? t("import.done", { count: job.totalRows })
                  : job.status === "failed"
                    ? (job.error ?? t("job.failed"))
                    : t("import.progress", { done: job.processedRows, total: job.totalRows })}
              </p>
              {job.status === "done" && (
                <a href={eventHref} className={`${SECONDARY_BUTTON} mt-3`}>
                  {t("import.seeResults")}
                </a>
              )}
            </div>
          ) : (
            <button
              type="button"
              className={`${PRIMARY_BUTTON} mt-4 w-full sm:w-auto`}
              disabled={busy !== null || problemCount > 0 || preview.rowCount === 0}
              onClick={() => startImport(false)}
            >
              <Upload className="h-4 w-4" aria-hidden="true" />
              {t("import.submit", { count: preview.rowCount })}
            </button>
          )}
        </section>
      )}

      {children}

      {confirmReplace && preview && (
        <Dialog
          title={t("import.replaceTitle")}
          role="alertdialog"
          onClose={() => setConfirmReplace(false)}
          closeLabel={t("import.cancel")}
          actions={
            <>
              <button
                type="button"
                className={SECONDARY_BUTTON}
                onClick={() => setConfirmReplace(false)}
                data-autofocus
              >
                {t("import.cancel")}
              </button>
              <button type="button" className={DANGER_BUTTON} onClick={() => startImport(true)}>
                {t("import.replaceConfirm")}
              </button>
            </>
          }
        >
          <p>{t("import.replaceBody", { count: preview.existingResults, course: course?.name ?? "" })}</p>
        </Dialog>
      )}
    </main>
  );
}
