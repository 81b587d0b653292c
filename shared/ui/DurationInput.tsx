import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  DEFAULT_MAX_HOURS,
  DURATION_PARTS,
  type DurationPart,
  type DurationTexts,
  isPartValid,
  partsToSeconds,
  secondsToParts,
} from "./duration.ts";
import { SegmentedField, type SegmentedFieldFrameProps } from "./SegmentedField.tsx";

export type DurationInputProps = SegmentedFieldFrameProps & {
  /** Controlled value in seconds; null for an empty duration. */
  value?: number | null;
  defaultValue?: number | null;
  /** Seconds, or null when every part is zero or empty. Not called for out-of-range input. */
  onChange?: (seconds: number | null) => void;
  /** Largest number of hours (default 999; hours never take more than 3 characters). */
  maxHours?: number;
};

const INPUT_WIDTH: Record<DurationPart, string> = { hours: "w-16", minutes: "w-12", seconds: "w-12" };

/**
 * hours:minutes:seconds fields. Out-of-range input is ignored (the value does not change) and the
 * field is flagged in a danger colour with aria-invalid and a text hint; leaving the field puts
 * back its last valid text. Empty parts count as 00 and an all-zero duration is reported as null.
 */
export function DurationInput({
  value,
  defaultValue,
  onChange,
  maxHours = DEFAULT_MAX_HOURS,
  id,
  ...field
}: DurationInputProps) {
  const { t } = useTranslation("ui");
  const autoId = useId();
  const baseId = id ?? `duration-${autoId}`;
  const controlled = value !== undefined;
  const initial = controlled ? value : (defaultValue ?? null);

  const [texts, setTexts] = useState<DurationTexts>(() => secondsToParts(initial));
  const lastValid = useRef<number | null>(initial ?? null);
  const lastValidTexts = useRef<DurationTexts>(secondsToParts(initial));
  const [hidden, setHidden] = useState<number | null>(initial ?? null);

  // A new controlled value from outside replaces what is shown.
  useEffect(() => {
    if (!controlled || (value ?? null) === lastValid.current) return;
    const parts = secondsToParts(value);
    lastValid.current = value ?? null;
    lastValidTexts.current = parts;
    setTexts(parts);
    setHidden(value ?? null);
  }, [controlled, value]);

  const invalid = (part: DurationPart) => !isPartValid(part, texts[part], maxHours);

  const edit = (part: DurationPart, text: string) => {
    const next = { ...texts, [part]: text };
    setTexts(next);
    const seconds = partsToSeconds(next, maxHours);
    if (seconds === undefined) return; // out of range: ignored
    lastValidTexts.current = next;
    if (seconds === lastValid.current) return;
    lastValid.current = seconds;
    setHidden(seconds);
    onChange?.(seconds);
  };

  const leave = (part: DurationPart) => {
    if (invalid(part)) setTexts({ ...texts, [part]: lastValidTexts.current[part] });
  };

  return (
    <SegmentedField
      {...field}
      id={baseId}
      segments={DURATION_PARTS.map((part) => ({
        part,
        label: t(`duration.${part}`),
        placeholder: "00",
        width: INPUT_WIDTH[part],
        value: texts[part],
        invalid: invalid(part),
        hintKeys: [part],
      }))}
      separator=":"
      separatorClassName="font-semibold"
      hints={DURATION_PARTS.filter(invalid).map((part) => ({
        key: part,
        text: t(`duration.hint.${part}`, { max: maxHours }),
      }))}
      onEdit={edit}
      onLeave={leave}
      hiddenValue={hidden}
    />
  );
}
