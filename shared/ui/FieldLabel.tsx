import type { ReactNode } from "react";

/** The classes of a visible field label (also used by the legends of grouped fields). */
export const FIELD_LABEL_CLASS = "mb-1 block text-sm font-medium text-gray-900";

export type FieldLabelProps = {
  /** Id the control points to with aria-labelledby. */
  id: string;
  /** Visible label. */
  label?: ReactNode;
  /** Name for screen readers only, used when there is no visible label. */
  hiddenLabel?: string;
};

/** The label above a custom control: visible, or screen-reader only, or nothing when neither is given. */
export function FieldLabel({ id, label, hiddenLabel }: FieldLabelProps) {
  if (label) {
    return (
      <span id={id} className={FIELD_LABEL_CLASS}>
        {label}
      </span>
    );
  }
  if (hiddenLabel) {
    return (
      <span id={id} className="sr-only">
        {hiddenLabel}
      </span>
    );
  }
  return null;
}
