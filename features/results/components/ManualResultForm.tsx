import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { callApi } from "../../../shared/api-client.ts";
import { RESULT_STATUSES, type ResultStatus } from "../../../shared/constants.ts";
import { DurationInput } from "../../../shared/ui/DurationInput.tsx";
import { INPUT_CLASS, LABEL_CLASS, PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import type { MemberResult } from "../results.contract.ts";

type Initial = { status: ResultStatus; timeMs: number | null; rank: number | null };

/**
 * A member's own result for one course (POST /api/results/manual) or its correction (PUT
 * /api/results/manual/{id}): status, time (hours:minutes:seconds) and an optional rank. The API's
 * message shows beside the field it is about.
 */
export function ManualResultForm({
  course,
  editing,
  initial,
  onDone,
  onCancel,
}: {
  course: { id: number; label: string };
  /** The result being corrected; absent for a new one. */
  editing?: number;
  initial?: Initial;
  onDone: (result: MemberResult) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation("results");
  const id = useId();
  const [status, setStatus] = useState<ResultStatus>(initial?.status ?? "finished");
  const [seconds, setSeconds] = useState<number | null>(initial?.timeMs ? Math.round(initial.timeMs / 1000) : null);
  const [rank, setRank] = useState(initial?.rank ? String(initial.rank) : "");
  const [error, setError] = useState<{ field: string | null; message: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const body = {
      ...(editing ? {} : { courseId: course.id }),
      status,
      timeMs: status === "finished" && seconds !== null ? seconds * 1000 : null,
      rank: status === "finished" && rank.trim() ? rank.trim() : null,
    };
    const response = await callApi<MemberResult>(editing ? `/api/results/manual/${editing}` : "/api/results/manual", {
      method: editing ? "PUT" : "POST",
      body: JSON.stringify(body),
    });
    setBusy(false);
    if (response.ok) onDone(response.data);
    else setError({ field: null, message: response.message ?? t("block.failed") });
  };

  return (
    <form onSubmit={submit} className="space-y-4 rounded-xl border border-brand-200 bg-brand-50/40 p-4" noValidate>
      <h3 className="font-bold text-ink-900">{editing ? t("form.editTitle") : t("form.title")}</h3>
      <p className="text-ink-700 text-sm">{course.label}</p>
      <div>
        <label htmlFor={`${id}-status`} className={LABEL_CLASS}>
          {t("form.status")}
        </label>
        <select
          id={`${id}-status`}
          className={INPUT_CLASS}
          value={status}
          onChange={(e) => setStatus(e.target.value as ResultStatus)}
        >
          {RESULT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`status.${s}`)}
            </option>
          ))}
        </select>
      </div>
      {status === "finished" && (
        <>
          <DurationInput label={t("form.time")} id={`${id}-time`} value={seconds} onChange={setSeconds} />
          <div>
            <label htmlFor={`${id}-rank`} className={LABEL_CLASS}>
              {t("form.rank")}
            </label>
            <input
              id={`${id}-rank`}
              className={`${INPUT_CLASS} max-w-40`}
              inputMode="numeric"
              pattern="[0-9]*"
              value={rank}
              onChange={(e) => setRank(e.target.value.replace(/\D/g, "").slice(0, 7))}
            />
          </div>
        </>
      )}
      {error && (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-red-800 text-sm">
          {error.message}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={PRIMARY_BUTTON} disabled={busy}>
          {t("form.save")}
        </button>
        <button type="button" className={SECONDARY_BUTTON} onClick={onCancel}>
          {t("form.cancel")}
        </button>
      </div>
    </form>
  );
}
