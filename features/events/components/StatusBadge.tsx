import { Activity, CalendarCheck, CalendarClock, CircleCheck, CircleX, type LucideIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { EventState } from "../../../shared/constants.ts";

/** Each state has its own icon and word: the colour is never the only signal. */
const STYLES: Record<EventState, { icon: LucideIcon; className: string }> = {
  cancelled: { icon: CircleX, className: "bg-red-50 text-red-800 ring-red-200" },
  postponed: { icon: CalendarClock, className: "bg-amber-50 text-amber-900 ring-amber-200" },
  finished: { icon: CircleCheck, className: "bg-slate-100 text-slate-800 ring-slate-300" },
  in_progress: { icon: Activity, className: "bg-emerald-50 text-emerald-900 ring-emerald-200" },
  upcoming: { icon: CalendarCheck, className: "bg-sky-50 text-sky-900 ring-sky-200" },
};

export function StatusBadge({ state, className = "" }: { state: EventState; className?: string }) {
  const { t } = useTranslation("events");
  const { icon: Icon, className: style } = STYLES[state];
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 font-semibold text-xs ring-1 ring-inset ${style} ${className}`}
      data-state={state}
    >
      <Icon className="h-3.5 w-3.5" aria-hidden="true" />
      {t(`state.${state}`)}
    </span>
  );
}
