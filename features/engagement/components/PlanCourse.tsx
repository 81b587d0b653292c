import { CalendarCheck, CalendarPlus } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { apiFetch } from "../../../shared/api-client.ts";
import { CALENDAR_STATUSES, type CalendarStatus } from "../../../shared/constants.ts";
import { formatDuration } from "../../../shared/format.ts";
import { loginHref } from "../../../shared/i18n/pages.ts";
import { useLocale } from "../../../shared/i18n/use-locale.ts";
import { Dialog } from "../../../shared/ui/Dialog.tsx";
import { DurationInput } from "../../../shared/ui/DurationInput.tsx";
import { DANGER_BUTTON, PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import { useViewer } from "../../accounts/components/viewer.tsx";
import type { EventActions } from "../engagement.contract.ts";

type Planned = EventActions["calendar"][number];

/**
 * "Add to my planning" for one course: a dialog with the member's status and target time. A visitor
 * goes to sign in first and comes back to the same course.
 */
export function PlanCourse({
  courseId,
  courseName,
  planned,
  onChange,
}: {
  courseId: number;
  courseName: string;
  /** The member's entry for this course, or null. */
  planned: Planned | null;
  onChange: (entry: Planned | null) => void;
}) {
  const { t } = useTranslation("engagement");
  const viewer = useViewer();
  const locale = useLocale();
  const location = useLocation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<CalendarStatus>(planned?.status ?? "planned");
  const [target, setTarget] = useState<number | null>(planned?.targetTime ?? null);
  const [busy, setBusy] = useState(false);

  const start = () => {
    if (viewer.status === "anonymous") {
      const back = `${location.pathname}${location.search}#course-${courseId}`;
      navigate(loginHref(locale, back));
      return;
    }
    setStatus(planned?.status ?? "planned");
    setTarget(planned?.targetTime ?? null);
    setOpen(true);
  };

  const send = async (remove: boolean) => {
    setBusy(true);
    try {
      const response = await apiFetch(`/api/user/calendar/${courseId}`, {
        method: remove ? "DELETE" : "POST",
        ...(remove ? {} : { body: JSON.stringify({ status, targetTime: target }) }),
      });
      if (!response.ok) throw new Error(String(response.status));
      onChange(remove ? null : { courseId, status, targetTime: target });
      showToast("success", t(remove ? "plan.removed" : planned ? "plan.updated" : "plan.saved"));
      setOpen(false);
    } catch {
      showToast("error", t("plan.failed"));
    } finally {
      setBusy(false);
    }
  };

  const statusLabel = planned ? t(`plan.statuses.${planned.status}`) : null;
  return (
    <>
      <button
        type="button"
        onClick={start}
        disabled={viewer.status === "loading"}
        className={`${planned ? "border-emerald-300 bg-emerald-50 text-emerald-900" : "border-slate-300 bg-white text-ink-900"} inline-flex items-center gap-2 rounded-lg border px-3 py-1.5 font-semibold text-sm hover:brightness-95 disabled:opacity-60`}
        data-testid="plan-course"
        data-course-id={courseId}
      >
        {planned ? (
          <CalendarCheck className="size-4" aria-hidden="true" />
        ) : (
          <CalendarPlus className="size-4" aria-hidden="true" />
        )}
        <span className="text-left">
          {planned ? t("plan.inPlanning", { status: statusLabel }) : t("plan.button")}
          {planned?.targetTime ? (
            <span className="font-normal text-ink-700"> · {formatDuration(planned.targetTime, locale)}</span>
          ) : null}
        </span>
        <span className="sr-only"> — {courseName}</span>
      </button>
      {open && (
        <Dialog
          title={t("plan.title", { course: courseName })}
          onClose={() => setOpen(false)}
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
              <button type="button" className={SECONDARY_BUTTON} onClick={() => setOpen(false)}>
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
      )}
    </>
  );
}
