import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { type DatePart, type DateTexts, daysInMonth, evaluateDate, MAX_YEAR, partsFromIso } from "./date-parts.ts";
import { formatShortDate, parseIsoDate, toIsoDate } from "./date-range.ts";
import { type FieldHint, SegmentedField, type SegmentedFieldFrameProps } from "./SegmentedField.tsx";

export type DateFieldProps = SegmentedFieldFrameProps & {
  /** Controlled value "YYYY-MM-DD"; null for empty. */
  value?: string | null;
  defaultValue?: string | null;
  /** "YYYY-MM-DD" for a valid date within bounds, null while empty or incomplete. Not called for invalid input. */
  onChange?: (value: string | null) => void;
  /** Earliest accepted date ("YYYY-MM-DD" or Date). */
  min?: string | Date;
  /** Latest accepted date ("YYYY-MM-DD" or Date). */
  max?: string | Date;
};

const INPUT_WIDTH: Record<DatePart, string> = { day: "w-12", month: "w-12", year: "w-20" };

/** Field order and separator: dd/MM/yyyy in French, yyyy-MM-dd in English (like the spec's short dates). */
function layoutFor(language: string): { order: DatePart[]; separator: string } {
  return language.toLowerCase().startsWith("en")
    ? { order: ["year", "month", "day"], separator: "-" }
    : { order: ["day", "month", "year"], separator: "/" };
}

const asIso = (date: string | Date | undefined) => (date instanceof Date ? toIsoDate(date) : date);

/**
 * When a part leaves nothing to type: two digits, or a first digit no longer part can start with
 * (a day from 4, a month from 2); a year at four digits (longer years are still typed after it).
 */
export const DATE_PART_FULL: Record<DatePart, (text: string) => boolean> = {
  day: (text) => text.length >= 2 || /^[4-9]$/.test(text),
  month: (text) => text.length >= 2 || /^[2-9]$/.test(text),
  year: (text) => text.length >= 4,
};

/**
 * A whole date pasted into one input: "14/06/2026", "14.06.2026", "14-06-2026" (day first) or
 * "2026-06-14" (year first). Null for anything else, which is then pasted as typed text.
 */
export function parsePastedDate(text: string): DateTexts | null {
  const value = text.trim();
  const pad = (part: string) => part.padStart(2, "0");
  const dayFirst = /^(\d{1,2})[/.\-\s](\d{1,2})[/.\-\s](\d{4,6})$/.exec(value);
  if (dayFirst) return { day: pad(dayFirst[1] ?? ""), month: pad(dayFirst[2] ?? ""), year: dayFirst[3] ?? "" };
  const yearFirst = /^(\d{4,6})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(value);
  if (yearFirst) return { day: pad(yearFirst[3] ?? ""), month: pad(yearFirst[2] ?? ""), year: yearFirst[1] ?? "" };
  return null;
}

/**
 * Numeric day, month and year inputs bounded by min and max (spec §5 "Date fields"). Invalid input
 * (month outside 1-12, year outside 1-275760, a day the month does not have, a date out of bounds)
 * is ignored and flagged with aria-invalid, a danger colour and a text hint saying what is wrong
 * (« Le 31 février n'existe pas. »), announced politely; leaving the field puts back the last valid
 * date. A full input moves the focus on, Backspace in an empty one goes back, and a whole date
 * pasted into any input ("14/06/2026", "2026-06-14", "14.06.2026") fills all three.
 */
export function DateField({ value, defaultValue, onChange, min, max, id, ...field }: DateFieldProps) {
  const { t, i18n } = useTranslation("ui");
  const language = i18n.language ?? "fr";
  const autoId = useId();
  const baseId = id ?? `date-field-${autoId}`;
  const bounds = { min: asIso(min), max: asIso(max) };

  const controlled = value !== undefined;
  const initial = (controlled ? value : defaultValue) ?? null;
  const [texts, setTexts] = useState<DateTexts>(() => partsFromIso(initial));
  const lastValue = useRef<string | null>(initial);
  const [committed, setCommitted] = useState<string | null>(initial);
  const lastValidTexts = useRef<DateTexts>(partsFromIso(initial));

  // A new controlled value from outside replaces what is shown.
  useEffect(() => {
    if (!controlled || (value ?? null) === lastValue.current) return;
    lastValue.current = value ?? null;
    setCommitted(value ?? null);
    lastValidTexts.current = partsFromIso(value);
    setTexts(partsFromIso(value));
  }, [controlled, value]);

  const evaluation = evaluateDate(texts, bounds);
  const isFlagged = (part: DatePart) => evaluation.invalid[part] || evaluation.outOfBounds;

  const edit = (part: DatePart, text: string) => show({ ...texts, [part]: text });

  /** Shows new texts, and reports their date when it is valid (invalid input is only flagged). */
  const show = (next: DateTexts) => {
    setTexts(next);
    const result = evaluateDate(next, bounds);
    if (result.invalid.day || result.invalid.month || result.invalid.year || result.outOfBounds) return; // ignored
    lastValidTexts.current = next;
    if (result.value === lastValue.current) return;
    lastValue.current = result.value;
    setCommitted(result.value);
    onChange?.(result.value);
  };

  const leave = (_part: DatePart, leftField: boolean) => {
    if (!leftField) return;
    const current = evaluateDate(texts, bounds);
    if (current.invalid.day || current.invalid.month || current.invalid.year || current.outOfBounds) {
      setTexts(lastValidTexts.current);
    }
  };

  const shortDate = (iso: string) => {
    const date = parseIsoDate(iso);
    return date ? formatShortDate(date, language) : iso;
  };
  const hints: FieldHint[] = [];
  if (evaluation.invalid.day) {
    const month = evaluation.invalid.month || texts.month === "" ? undefined : Number(texts.month);
    const year = evaluation.invalid.year || texts.year.length < 4 ? undefined : Number(texts.year);
    const day = /^\d{1,2}$/.test(texts.day) ? Number(texts.day) : 0;
    // A day some month has, but not this one: say that this date does not exist.
    if (month && day >= 1 && day <= 31) {
      const monthName = new Intl.DateTimeFormat(language, { month: "long", timeZone: "UTC" }).format(
        new Date(Date.UTC(2000, month - 1, 1)),
      );
      const leap = month === 2 && day === 29 && year !== undefined;
      hints.push({
        key: "day",
        text: leap ? t("dateField.hint.notLeap", { year }) : t("dateField.hint.noSuchDay", { day, month: monthName }),
      });
    } else {
      hints.push({ key: "day", text: t("dateField.hint.day", { max: month ? daysInMonth(month, year) : 31 }) });
    }
  }
  if (evaluation.invalid.month) hints.push({ key: "month", text: t("dateField.hint.month") });
  if (evaluation.invalid.year) hints.push({ key: "year", text: t("dateField.hint.year", { max: MAX_YEAR }) });
  if (evaluation.outOfBounds) {
    const range = { min: bounds.min ? shortDate(bounds.min) : "", max: bounds.max ? shortDate(bounds.max) : "" };
    const key = bounds.min && bounds.max ? "between" : bounds.min ? "min" : "max";
    hints.push({ key: "bounds", text: t(`dateField.hint.${key}`, range) });
  }
  const { order, separator } = layoutFor(language);

  return (
    <SegmentedField
      {...field}
      id={baseId}
      segments={order.map((part) => ({
        part,
        label: t(`dateField.${part}`),
        placeholder: t(`dateField.placeholder.${part}`),
        width: INPUT_WIDTH[part],
        value: texts[part],
        invalid: isFlagged(part),
        hintKeys: [evaluation.invalid[part] && part, evaluation.outOfBounds && "bounds"],
        full: DATE_PART_FULL[part],
      }))}
      separator={separator}
      hints={hints}
      onEdit={edit}
      onLeave={leave}
      onPaste={(_part, text) => {
        const pasted = parsePastedDate(text);
        if (pasted) show(pasted);
        return pasted !== null;
      }}
      hiddenValue={committed}
    />
  );
}
