import { TriangleAlert } from "lucide-react";
import { type ReactNode, useRef } from "react";
import { cx } from "./cx.ts";
import { FIELD_LABEL_CLASS } from "./FieldLabel.tsx";

/** One numeric input of a segmented field. */
export type Segment<P extends string> = {
  part: P;
  /** Accessible name of the input. */
  label: string;
  placeholder: string;
  /** Width class (w-12, w-16…). */
  width: string;
  value: string;
  /** Shown in a danger colour with aria-invalid. */
  invalid: boolean;
  /** Keys of the hints that explain why the input is invalid (its aria-describedby); false entries are skipped. */
  hintKeys: readonly (string | false)[];
  /** True once the text typed leaves nothing to add: the focus then moves to the next input. */
  full?: (text: string) => boolean;
};

/** A text hint under the field, in words so the state never depends on colour alone. */
export type FieldHint = { key: string; text: string };

/** The settings every segmented field takes from its user (DateFieldProps, DurationInputProps). */
export type SegmentedFieldFrameProps = {
  label?: ReactNode;
  "aria-label"?: string;
  /** Id of the fieldset (generated when absent). */
  id?: string;
  /** Name of a hidden input carrying the field's value for plain HTML forms. */
  name?: string;
  disabled?: boolean;
  className?: string;
};

export type SegmentedFieldProps<P extends string> = Omit<SegmentedFieldFrameProps, "id"> & {
  /** Id of the fieldset; hint ids derive from it (`${id}-${key}-hint`). */
  id: string;
  segments: readonly Segment<P>[];
  /** Decorative text between two inputs ("/", ":"…). */
  separator: string;
  separatorClassName?: string;
  hints: readonly FieldHint[];
  /** Called with the trimmed text of an input on every change. */
  onEdit: (part: P, text: string) => void;
  /** Called when an input loses the focus; `leftField` tells whether the focus left the whole field. */
  onLeave: (part: P, leftField: boolean) => void;
  /** Value of the hidden input (empty when null). */
  hiddenValue?: string | number | null;
  /** Text pasted into an input: return true when it was taken whole (it is then not inserted). */
  onPaste?: (part: P, text: string) => boolean;
};

const INPUT_CLASS =
  "rounded-md border px-2 py-1.5 text-center tabular-nums placeholder:text-gray-600 focus-visible:outline-none focus-visible:ring-2 disabled:cursor-not-allowed disabled:bg-gray-100";
const VALID_CLASS = "border-gray-400 bg-white text-gray-900 focus-visible:ring-blue-600";
const INVALID_CLASS = "border-red-600 bg-red-50 text-red-900 focus-visible:ring-red-600";

/**
 * A group of numeric inputs (DateField, DurationInput) under a legend, with the invalid-state
 * styling, the aria-invalid / aria-describedby wiring and the hints announced politely below.
 * It holds no value: parsing and validation stay with the component that uses it.
 */
export function SegmentedField<P extends string>({
  id,
  label,
  "aria-label": ariaLabel,
  disabled = false,
  className,
  segments,
  separator,
  separatorClassName,
  hints,
  onEdit,
  onLeave,
  name,
  hiddenValue,
  onPaste,
}: SegmentedFieldProps<P>) {
  const groupRef = useRef<HTMLFieldSetElement>(null);
  /** The index-th input of the group, when there is one. */
  const input = (index: number) =>
    groupRef.current?.querySelectorAll<HTMLInputElement>("input[data-segment]")[index] ?? null;
  const moveTo = (index: number) => {
    const target = input(index);
    if (!target) return;
    target.focus();
    // At the end of its text: Backspace goes on deleting where the typing stopped.
    target.setSelectionRange(target.value.length, target.value.length);
  };
  const hintId = (key: string) => `${id}-${key}-hint`;
  const describedBy = ({ invalid, hintKeys }: Segment<P>) =>
    (invalid && hintKeys.flatMap((key) => (key ? [hintId(key)] : [])).join(" ")) || undefined;

  return (
    <fieldset
      ref={groupRef}
      id={id}
      disabled={disabled}
      aria-label={label ? undefined : ariaLabel}
      className={cx("m-0 min-w-0 border-0 p-0", className)}
    >
      {label ? <legend className={cx(FIELD_LABEL_CLASS, "p-0")}>{label}</legend> : null}
      <div className="flex items-center gap-1">
        {segments.map((segment, index) => (
          <span key={segment.part} className="flex items-center gap-1">
            {index > 0 ? (
              <span aria-hidden="true" className={cx(separatorClassName, "text-gray-700")}>
                {separator}
              </span>
            ) : null}
            <input
              type="text"
              inputMode="numeric"
              autoComplete="off"
              aria-label={segment.label}
              placeholder={segment.placeholder}
              aria-invalid={segment.invalid || undefined}
              aria-describedby={describedBy(segment)}
              data-segment={segment.part}
              value={segment.value}
              onChange={(event) => {
                const text = event.target.value.trim();
                onEdit(segment.part, text);
                // Typing (not deleting) that fills the input moves on to the next one.
                const typed = text.length > segment.value.length;
                if (typed && segment.full?.(text) && index < segments.length - 1) moveTo(index + 1);
              }}
              onKeyDown={(event) => {
                // Backspace in an empty input goes back to the previous one.
                if (event.key === "Backspace" && event.currentTarget.value === "" && index > 0) {
                  event.preventDefault();
                  moveTo(index - 1);
                }
              }}
              onPaste={(event) => {
                if (onPaste?.(segment.part, event.clipboardData.getData("text"))) event.preventDefault();
              }}
              onBlur={(event) => onLeave(segment.part, !groupRef.current?.contains(event.relatedTarget as Node | null))}
              className={cx(INPUT_CLASS, segment.width, segment.invalid ? INVALID_CLASS : VALID_CLASS)}
            />
          </span>
        ))}
      </div>
      <div aria-live="polite">
        {hints.map((hint) => (
          <p key={hint.key} id={hintId(hint.key)} className="mt-1 flex items-center gap-1 text-sm text-red-800">
            <TriangleAlert className="size-4 shrink-0" aria-hidden="true" />
            {hint.text}
          </p>
        ))}
      </div>
      {name ? <input type="hidden" name={name} value={hiddenValue ?? ""} /> : null}
    </fieldset>
  );
}
