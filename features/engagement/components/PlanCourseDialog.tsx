import { useState } from "react";
import { useTranslation } from "react-i18next";
import { apiFetch } from "../../../shared/api-client.ts";
import { CALENDAR_STATUSES, type CalendarStatus } from "../../../shared/constants.ts";
import { Dialog } from "../../../shared/ui/Dialog.tsx";
import { DurationInput } from "../../../shared/ui/DurationInput.tsx";
import { DANGER_BUTTON, PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import type { EventActions } from "../engagement.contract.ts";

type Planned = EventActions["calendar"][number];

/** PlanCourse's dialog: the member's status and target time for one course, saved or removed. */
export function PlanCourseDialog({
  courseId,
  courseName,
  planned,
  onClose,
  onSaved,
}: {
  courseId: number;
  courseName: string;
  planned: Planned | null;
  onClose: () => void;
  onSaved: (entry: Planned | null) => void;
}) {
  const { t } = useTranslation("engagement");
  const [status, setStatus] = useState<CalendarStatus>(planned?.status ?? "planned");
  const [target, setTarget] = useState<number | null>(planned?.targetTime ?? null);
  const [busy, setBusy] = useState(false);

  const send = async (remove: boolean) => {
    setBusy(true);
    try {
      const response = await apiFetch(`/api/user/calendar/${courseId}`, {
        method: remove ? "DELETE" : "POST",
        ...(remove ? {} : { body: JSON.stringify({ status, targetTime: target }) }),
      });
      if (!response.ok) throw new Error(String(response.status));
      onSaved(remove ? null : { courseId, status, targetTime: target });
      showToast("success", t(remove ? "plan.removed" : planned ? "plan.updated" : "plan.saved"));
      onClose();
    } catch {
      showToast("error", t("plan.failed"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={t("plan.title", { course: courseName })}
      onClose={onClose}
      closeLabel={t("plan.close")}
      testId="plan-dialog"
      actions={
        <>
          <button type="button" className={PRIMARY_BUTTON} disabled={busy} onClick={() => void send(false)}>
            {t("plan.save")}
          </button>
          {planned && (
            <button type="button" className={DANGER_BUTTON} disabled={busy} onClick={() => void send(true)}>
              {t("plan.remove")}
            </button>
          )}
          <button type="button" className={SECONDARY_BUTTON} onClick={onClose}>
            {t("plan.cancel")}
          </button>
        </>
      }
    >
      <fieldset className="space-y-2">
        <legend className="mb-1 font-medium text-ink-900 text-sm">{t("plan.status")}</legend>
        <div className="grid grid-cols-2 gap-2">
          {CALENDAR_STATUSES.map((value, index) => (
            <label
              key={value}
              className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
            >
              <input
                type="radio"
                name={`plan-status-${courseId}`}
                value={value}
                checked={status === value}
                onChange={() => setStatus(value)}
                {...(index === 0 ? { "data-autofocus": true } : {})}
              />
              {t(`plan.statuses.${value}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="mt-4">
        <DurationInput
          label={t("plan.target")}
          value={target}
          onChange={setTarget}
          maxHours={167}
          data-testid="plan-target"
        />
        <p className="mt-1 text-ink-500 text-xs">{t("plan.targetHint")}</p>
      </div>
    </Dialog>
  );
}
