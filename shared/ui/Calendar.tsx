import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from "lucide-react";
import { type ReactNode, useState } from "react";
import ReactCalendar from "react-calendar";
import { useTranslation } from "react-i18next";
import { cx } from "./cx.ts";
import "./calendar.css";

export type CalendarView = "century" | "decade" | "year" | "month";
type CalendarValue = Date | null | [Date | null, Date | null];

export type CalendarProps = {
  value?: CalendarValue;
  /** A day (single mode) or a [start, end] pair once a range is complete (selectRange). */
  onChange?: (value: Date | [Date, Date]) => void;
  /** Two clicks pick a range instead of one day. */
  selectRange?: boolean;
  minDate?: Date;
  maxDate?: Date;
  /** View shown first (month by default); the user can still zoom out to year, decade and century. */
  defaultView?: CalendarView;
  /** First period shown; defaults to the value or today. */
  defaultActiveStartDate?: Date;
  /** The period shown changed (arrows, zooming in or out): its first day and the view. */
  onActiveStartDateChange?: (start: Date, view: CalendarView) => void;
  /** Accessible name of the calendar group (translated "Calendar" by default). */
  "aria-label"?: string;
  className?: string;
  /** Extra content in a day's tile (month view), e.g. marks for the races of that day. */
  tileContent?: (day: Date) => ReactNode;
  /** Extra classes for a day's tile (month view). */
  tileClassName?: (day: Date) => string | null;
};

/**
 * Weeks start on Monday in both languages (spec §9: ISO weeks, "iso8601" for react-calendar): the
 * races are French, and a runner reading in English counts the same weekends as the French pages.
 */
export function calendarTypeFor(_language: string): "iso8601" {
  return "iso8601";
}

/** BCP 47 locale handed to react-calendar for month and weekday names (British English, as the site's dates). */
export function calendarLocaleFor(language: string): string {
  return language.toLowerCase().startsWith("en") ? "en-GB" : "fr-FR";
}

const ICON = "size-4";

/** react-calendar with the product's defaults: views century → month, translated navigation, min/max, ranges. */
export function Calendar({
  value,
  onChange,
  selectRange = false,
  minDate,
  maxDate,
  defaultView = "month",
  defaultActiveStartDate,
  onActiveStartDateChange,
  "aria-label": ariaLabel,
  className,
  tileContent,
  tileClassName,
}: CalendarProps) {
  const { t, i18n } = useTranslation("ui");
  const language = i18n.language ?? "fr";
  const [view, setView] = useState<CalendarView>(defaultView);

  return (
    <fieldset
      aria-label={ariaLabel ?? t("calendar.label")}
      className={cx("dossard-calendar m-0 min-w-0 border-0 p-0", className)}
    >
      <ReactCalendar
        value={value}
        onChange={(next) => {
          if (!next) return;
          if (Array.isArray(next)) {
            if (next[0] && next[1]) onChange?.([next[0], next[1]]);
          } else {
            onChange?.(next);
          }
        }}
        selectRange={selectRange}
        minDate={minDate}
        maxDate={maxDate}
        minDetail="century"
        maxDetail="month"
        defaultView={defaultView}
        defaultActiveStartDate={defaultActiveStartDate}
        onViewChange={({ view: next }) => setView(next)}
        onActiveStartDateChange={({ activeStartDate, view: shown }) => {
          if (activeStartDate) onActiveStartDateChange?.(activeStartDate, shown);
        }}
        tileContent={
          tileContent ? ({ date, view: shown }) => (shown === "month" ? tileContent(date) : null) : undefined
        }
        tileClassName={
          tileClassName ? ({ date, view: shown }) => (shown === "month" ? tileClassName(date) : null) : undefined
        }
        calendarType={calendarTypeFor(language)}
        locale={calendarLocaleFor(language)}
        prevAriaLabel={t(`calendar.prev.${view}`)}
        nextAriaLabel={t(`calendar.next.${view}`)}
        prev2AriaLabel={view === "century" ? undefined : t(`calendar.prev2.${view}`)}
        next2AriaLabel={view === "century" ? undefined : t(`calendar.next2.${view}`)}
        prevLabel={<ChevronLeft className={ICON} aria-hidden="true" />}
        nextLabel={<ChevronRight className={ICON} aria-hidden="true" />}
        prev2Label={<ChevronsLeft className={ICON} aria-hidden="true" />}
        next2Label={<ChevronsRight className={ICON} aria-hidden="true" />}
        navigationLabel={({ label }) => (
          <>
            {label}
            <span className="sr-only"> ({t("calendar.navigation")})</span>
          </>
        )}
      />
    </fieldset>
  );
}
