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
 * Numeric day, month and year inputs bounded by min and max (spec §5 "Date fields"). Invalid input
 * (month outside 1-12, year outside 1-275760, a day the month does not have, a date out of bounds)
 * is ignored and flagged with aria-invalid, a danger colour and a text hint; leaving the field
 * puts back the last valid date.
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

  const edit = (part: DatePart, text: string) => {
    const next = { ...texts, [part]: text };
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
    hints.push({ key: "day", text: t("dateField.hint.day", { max: month ? daysInMonth(month, year) : 31 }) });
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
      }))}
      separator={separator}
      hints={hints}
      onEdit={edit}
      onLeave={leave}
      hiddenValue={committed}
    />
  );
}
