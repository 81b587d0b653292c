import { CalendarDays, X } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { QuickRange } from "../constants.ts";
import { Calendar } from "./Calendar.tsx";
import { cx } from "./cx.ts";
import {
  type DateRange,
  type DateRangeOutput,
  type DateRangeValue,
  dateBounds,
  matchingQuickRange,
  parseRangeValue,
  resolvedQuickRange,
  shortRangeParts,
  toIsoDate,
  toRangeOutput,
  visibleQuickRanges,
} from "./date-range.ts";
import { FieldLabel } from "./FieldLabel.tsx";

export type { DateRangeOutput, DateRangeValue } from "./date-range.ts";

export type DateRangePickerProps = {
  /** Controlled value: [start, end], "YYYY-MM-DD|YYYY-MM-DD" or { startDate, endDate }; null for empty. */
  value?: DateRangeValue;
  defaultValue?: DateRangeValue;
  /** Both ends as "YYYY-MM-DD" (equal in single mode), or null once cleared. */
  onChange?: (value: DateRangeOutput | null) => void;
  /** Called when the clear icon empties the picker. */
  onReset?: () => void;
  /** true: today to today + 5 years; false: up to today (past only); undefined: from 2017-01-01 on. */
  future?: boolean;
  /** One date instead of a range. */
  single?: boolean;
  /** Earliest date (wins over the 2017-01-01 floor and over future=true's today). */
  minDate?: Date | string;
  maxDate?: Date | string;
  /** "Today" for bounds and quick ranges; injectable for tests. */
  today?: Date;
  label?: ReactNode;
  "aria-label"?: string;
  placeholder?: string;
  id?: string;
  /** Name of a hidden input carrying "start|end" for plain HTML forms. */
  name?: string;
  disabled?: boolean;
  /** Shows the clear icon when a range is set (default true). */
  clearable?: boolean;
  className?: string;
};

const FOCUSABLE = "button:not(:disabled), [href], input:not(:disabled), [tabindex]:not([tabindex='-1'])";

/** A closed/open date-range picker with quick ranges, built on the Calendar. */
export function DateRangePicker({
  value,
  defaultValue,
  onChange,
  onReset,
  future,
  single = false,
  minDate,
  maxDate,
  today: todayProp,
  label,
  "aria-label": ariaLabel,
  placeholder,
  id,
  name,
  disabled = false,
  clearable = true,
  className,
}: DateRangePickerProps) {
  const { t, i18n } = useTranslation("ui");
  const autoId = useId();
  const triggerId = id ?? `date-range-${autoId}`;
  const labelId = `${triggerId}-label`;
  const textId = `${triggerId}-text`;
  const dialogId = `${triggerId}-dialog`;

  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);

  const controlled = value !== undefined;
  const [ownRange, setOwnRange] = useState<DateRange | null>(() => parseRangeValue(defaultValue));
  const range = controlled ? parseRangeValue(value) : ownRange;
  const [open, setOpen] = useState(false);

  const today = todayProp ?? new Date();
  const bounds = dateBounds({ today, future, minDate, maxDate });
  const quickKeys = single ? [] : visibleQuickRanges(future);
  const activeQuick = single ? null : matchingQuickRange(range, quickKeys, today, bounds);

  const commit = (next: DateRange | null) => {
    if (!controlled) setOwnRange(next);
    onChange?.(next ? toRangeOutput(next) : null);
  };

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) triggerRef.current?.focus();
  };

  // Opening moves the focus into the popup; Escape, a press outside or the focus leaving closes it.
  useEffect(() => {
    const root = rootRef.current;
    if (!open || !root) return;
    dialogRef.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    const close = (returnFocus: boolean) => {
      setOpen(false);
      if (returnFocus) triggerRef.current?.focus();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        close(true);
      }
    };
    const onPointerDown = (event: MouseEvent) => {
      if (!root.contains(event.target as Node)) close(false);
    };
    const onFocusOut = (event: FocusEvent) => {
      if (event.relatedTarget && !root.contains(event.relatedTarget as Node)) close(false);
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("mousedown", onPointerDown);
    root.addEventListener("focusout", onFocusOut);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("mousedown", onPointerDown);
      root.removeEventListener("focusout", onFocusOut);
    };
  }, [open]);

  const pickQuick = (key: QuickRange) => {
    const picked = resolvedQuickRange(key, today, bounds);
    if (!picked) return;
    commit(picked);
    close(true);
  };

  const pickCalendar = (picked: Date | [Date, Date]) => {
    const [start, end] = Array.isArray(picked) ? picked : [picked, picked];
    commit({ start, end: single ? start : end });
    close(true);
  };

  const clear = () => {
    commit(null);
    onReset?.();
    close(true);
  };

  let text: string;
  if (range) {
    const parts = shortRangeParts(range, i18n.language ?? "fr");
    text = parts.single || single ? parts.start : t("dateRange.range", { start: parts.start, end: parts.end });
  } else {
    text = placeholder ?? t(single ? "dateRange.placeholderSingle" : "dateRange.placeholder");
  }
  const named = Boolean(label ?? ariaLabel);
  // The month shown first when nothing is chosen: today, kept inside the bounds.
  const anchor = today < bounds.min ? bounds.min : bounds.max && today > bounds.max ? bounds.max : today;

  return (
    <div ref={rootRef} className={cx("relative w-full", className)}>
      <FieldLabel id={labelId} label={label} hiddenLabel={ariaLabel} />
      <div
        className={cx(
          "flex min-h-10 w-full items-center gap-1 rounded-md border bg-white text-gray-900",
          open ? "border-blue-600" : "border-gray-400",
          disabled && "bg-gray-100 text-gray-700",
        )}
      >
        <button
          ref={triggerRef}
          id={triggerId}
          type="button"
          disabled={disabled}
          aria-haspopup="dialog"
          aria-expanded={open}
          aria-controls={dialogId}
          aria-labelledby={named ? `${labelId} ${textId}` : undefined}
          onClick={() => (open ? close(true) : setOpen(true))}
          className="flex min-w-0 flex-1 items-center gap-2 self-stretch rounded-md px-3 py-1.5 text-left focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 disabled:cursor-not-allowed"
        >
          <CalendarDays className="size-4 shrink-0 text-gray-700" aria-hidden="true" />
          <span id={textId} className={cx("truncate", !range && "text-gray-600")}>
            {text}
          </span>
        </button>
        {clearable && range && !disabled ? (
          <button
            type="button"
            aria-label={t("dateRange.clear")}
            onClick={clear}
            className="mr-1 rounded p-1 text-gray-700 hover:bg-gray-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        ) : null}
      </div>

      <div
        ref={dialogRef}
        id={dialogId}
        role="dialog"
        aria-label={t(single ? "dateRange.dialogSingle" : "dateRange.dialog")}
        hidden={!open}
        className="absolute z-30 mt-1 w-full min-w-72 max-w-sm rounded-md border border-gray-300 bg-white p-3 shadow-lg"
      >
        {open ? (
          <>
            {quickKeys.length > 0 ? (
              <fieldset className="mb-3 flex flex-wrap gap-2 border-0 p-0">
                <legend className="sr-only">{t("dateRange.quickRanges")}</legend>
                {quickKeys.map((key) => {
                  const pressed = activeQuick === key;
                  return (
                    <button
                      key={key}
                      type="button"
                      aria-pressed={pressed}
                      disabled={!resolvedQuickRange(key, today, bounds)}
                      onClick={() => pickQuick(key)}
                      className={cx(
                        "rounded-full border px-3 py-1 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 disabled:cursor-not-allowed disabled:opacity-60",
                        pressed
                          ? "border-blue-700 bg-blue-700 font-semibold text-white underline underline-offset-2"
                          : "border-gray-400 text-gray-900 hover:bg-gray-100",
                      )}
                    >
                      {t(`dateRange.quick.${key}`)}
                    </button>
                  );
                })}
              </fieldset>
            ) : null}
            {single ? null : <p className="mb-2 text-sm text-gray-700">{t("dateRange.hint")}</p>}
            <Calendar
              value={range ? (single ? range.start : [range.start, range.end]) : null}
              selectRange={!single}
              minDate={bounds.min}
              maxDate={bounds.max ?? undefined}
              defaultActiveStartDate={range?.start ?? anchor}
              onChange={pickCalendar}
            />
          </>
        ) : null}
      </div>

      {name ? (
        <input
          type="hidden"
          name={name}
          value={range ? `${toIsoDate(range.start)}|${toIsoDate(range.end)}` : ""}
          disabled={disabled}
        />
      ) : null}
    </div>
  );
}
