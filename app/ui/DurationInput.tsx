import { TriangleAlert } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { cx } from "./cx.ts";
import {
  DEFAULT_MAX_HOURS,
  DURATION_PARTS,
  type DurationPart,
  type DurationTexts,
  isPartValid,
  partsToSeconds,
  secondsToParts,
} from "./duration.ts";

export type DurationInputProps = {
  /** Controlled value in seconds; null for an empty duration. */
  value?: number | null;
  defaultValue?: number | null;
  /** Seconds, or null when every part is zero or empty. Not called for out-of-range input. */
  onChange?: (seconds: number | null) => void;
  /** Largest number of hours (default 999; hours never take more than 3 characters). */
  maxHours?: number;
  label?: ReactNode;
  "aria-label"?: string;
  id?: string;
  /** Name of a hidden input carrying the seconds for plain HTML forms. */
  name?: string;
  disabled?: boolean;
  className?: string;
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
  label,
  "aria-label": ariaLabel,
  id,
  name,
  disabled = false,
  className,
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

  const hintKey = (part: DurationPart) => `${baseId}-${part}-hint`;
  const flagged = DURATION_PARTS.filter(invalid);

  return (
    <fieldset
      id={baseId}
      disabled={disabled}
      aria-label={label ? undefined : ariaLabel}
      className={cx("m-0 min-w-0 border-0 p-0", className)}
    >
      {label ? <legend className="mb-1 block p-0 text-sm font-medium text-gray-900">{label}</legend> : null}
      <div className="flex items-center gap-1">
        {DURATION_PARTS.map((part, index) => {
          const bad = invalid(part);
          return (
            <span key={part} className="flex items-center gap-1">
              {index > 0 ? (
                <span aria-hidden="true" className="font-semibold text-gray-700">
                  :
                </span>
              ) : null}
              <input
                type="text"
                inputMode="numeric"
                autoComplete="off"
                placeholder="00"
                aria-label={t(`duration.${part}`)}
                aria-invalid={bad || undefined}
                aria-describedby={bad ? hintKey(part) : undefined}
                value={texts[part]}
                onChange={(event) => edit(part, event.target.value.trim())}
                onBlur={() => leave(part)}
                className={cx(
                  "rounded-md border px-2 py-1.5 text-center tabular-nums placeholder:text-gray-600 focus-visible:outline-none focus-visible:ring-2 disabled:cursor-not-allowed disabled:bg-gray-100",
                  INPUT_WIDTH[part],
                  bad
                    ? "border-red-600 bg-red-50 text-red-900 focus-visible:ring-red-600"
                    : "border-gray-400 bg-white text-gray-900 focus-visible:ring-blue-600",
                )}
              />
            </span>
          );
        })}
      </div>
      <div aria-live="polite">
        {flagged.map((part) => (
          <p key={part} id={hintKey(part)} className="mt-1 flex items-center gap-1 text-sm text-red-800">
            <TriangleAlert className="size-4 shrink-0" aria-hidden="true" />
            {t(`duration.hint.${part}`, { max: maxHours })}
          </p>
        ))}
      </div>
      {name ? <input type="hidden" name={name} value={hidden ?? ""} /> : null}
    </fieldset>
  );
}
