import { CalendarCheck, CalendarPlus } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { formatDuration } from "../../../shared/format.ts";
import { loginHref } from "../../../shared/i18n/pages.ts";
import { useLocale } from "../../../shared/i18n/use-locale.ts";
import { useViewer } from "../../identity/components/viewer.tsx";
import type { EventActions } from "../engagement.contract.ts";

type Planned = EventActions["calendar"][number];

// The dialog (DurationInput, Dialog) is not part of the event page's first load (decision 030).
const preload = () => import("./PlanCourseDialog.tsx");
const PlanCourseDialog = lazy(() => preload().then((m) => ({ default: m.PlanCourseDialog })));

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

  const start = () => {
    if (viewer.status === "anonymous") {
      const back = `${location.pathname}${location.search}#course-${courseId}`;
      navigate(loginHref(locale, back));
      return;
    }
    setOpen(true);
  };

  const statusLabel = planned ? t(`plan.statuses.${planned.status}`) : null;
  return (
    <>
      <button
        type="button"
        onClick={start}
        // The dialog's code, fetched when the button is pointed at or focused rather than clicked.
        onPointerEnter={preload}
        onFocus={preload}
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
        <Suspense fallback={null}>
          <PlanCourseDialog
            courseId={courseId}
            courseName={courseName}
            planned={planned}
            onClose={() => setOpen(false)}
            onSaved={onChange}
          />
        </Suspense>
      )}
    </>
  );
}
