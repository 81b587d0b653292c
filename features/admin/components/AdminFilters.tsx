/**
 * The fields of an admin list's filter form (AdminTable's `filters`): labelled inputs named like
 * the address's parameters, filled from it, narrow enough to sit side by side on a desktop and
 * full width on a phone.
 */
import type { ReactNode } from "react";
import { cx } from "../../../shared/ui/cx.ts";
import { INPUT_CLASS, LABEL_CLASS } from "../../../shared/ui/fields.tsx";

const FIELD = "block w-full sm:w-auto";
/** Two side by side on a phone (short values: a level, an id, a day). */
const HALF = "block w-[calc(50%-0.25rem)] sm:w-auto";

export function FilterText({
  name,
  label,
  value,
  type = "search",
  inputMode,
  half,
  className,
}: {
  name: string;
  label: string;
  value: string | number | undefined;
  type?: "search" | "text" | "date" | "datetime-local";
  inputMode?: "numeric" | "text";
  half?: boolean;
  className?: string;
}) {
  return (
    <label className={cx(half ? HALF : FIELD, className)}>
      <span className={LABEL_CLASS}>{label}</span>
      <input
        type={type}
        name={name}
        defaultValue={value ?? ""}
        inputMode={inputMode}
        className={cx(INPUT_CLASS, "py-2")}
      />
    </label>
  );
}

export function FilterSelect({
  name,
  label,
  value,
  all,
  options,
  half,
}: {
  name: string;
  label: string;
  value: string | undefined;
  /** The first option, for no filter. */
  all: string;
  options: readonly { value: string; label: string }[];
  half?: boolean;
}) {
  return (
    <label className={half ? HALF : FIELD}>
      <span className={LABEL_CLASS}>{label}</span>
      <select name={name} defaultValue={value ?? ""} className={cx(INPUT_CLASS, "py-2")}>
        <option value="">{all}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Parameters the form keeps without showing them (the tab of a tabbed page). */
export function FilterHidden({ values }: { values: Record<string, string> }): ReactNode {
  return Object.entries(values).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />);
}
