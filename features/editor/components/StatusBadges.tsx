import {
  CalendarClock,
  CircleCheck,
  CircleOff,
  CircleX,
  Hourglass,
  type LucideIcon,
  SearchCheck,
  ShieldQuestion,
} from "lucide-react";
import { useTranslation } from "react-i18next";

type BadgeKey = "pending" | "active" | "inactive" | "to_check" | "checked" | "cancelled" | "postponed";

/** Each status has its icon and its word: colour is never the only signal. */
const BADGES: Record<BadgeKey, { icon: LucideIcon; className: string }> = {
  pending: { icon: Hourglass, className: "bg-amber-50 text-amber-950 ring-amber-300" },
  active: { icon: CircleCheck, className: "bg-emerald-50 text-emerald-900 ring-emerald-200" },
  inactive: { icon: CircleOff, className: "bg-slate-100 text-slate-800 ring-slate-300" },
  to_check: { icon: ShieldQuestion, className: "bg-sky-50 text-sky-950 ring-sky-200" },
  checked: { icon: SearchCheck, className: "bg-emerald-50 text-emerald-900 ring-emerald-200" },
  cancelled: { icon: CircleX, className: "bg-red-50 text-red-800 ring-red-200" },
  postponed: { icon: CalendarClock, className: "bg-amber-50 text-amber-950 ring-amber-300" },
};

export function Badge({ kind }: { kind: BadgeKey }) {
  const { t } = useTranslation("editor");
  const { icon: Icon, className } = BADGES[kind];
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 font-semibold text-xs ring-1 ring-inset ${className}`}
      data-badge={kind}
    >
      <Icon className="h-3.5 w-3.5" aria-hidden="true" />
      {t(`status.${kind}`)}
    </span>
  );
}

type Props = {
  event: { status: string; checkStatus: string; cancelled: boolean; postponed: boolean };
};

/** Validation status, check status and the cancelled / postponed flags of an event. */
export function StatusBadges({ event }: Props) {
  const { t } = useTranslation("editor");
  const status = (["pending", "active", "inactive"] as const).find((s) => s === event.status);
  const check = (["to_check", "checked"] as const).find((s) => s === event.checkStatus);
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label={t("status.label")}>
      {status ? (
        <li>
          <Badge kind={status} />
        </li>
      ) : null}
      {check ? (
        <li>
          <Badge kind={check} />
        </li>
      ) : null}
      {event.cancelled ? (
        <li>
          <Badge kind="cancelled" />
        </li>
      ) : null}
      {event.postponed ? (
        <li>
          <Badge kind="postponed" />
        </li>
      ) : null}
    </ul>
  );
}
