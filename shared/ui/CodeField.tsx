import type { ReactNode } from "react";
import { VERIFICATION_CODE_LENGTH } from "../constants.ts";
import { type FieldBinding, TextField } from "./fields.tsx";

/** The field of a mailed 5-digit code (email verification, organiser claim). */
export function CodeField({
  field,
  label,
  className,
  autoFocus,
}: {
  field: FieldBinding;
  label: ReactNode;
  className?: string;
  autoFocus?: boolean;
}) {
  return (
    <TextField
      field={field}
      label={label}
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={VERIFICATION_CODE_LENGTH}
      className={className}
      style={{ letterSpacing: "0.4em", fontVariantNumeric: "tabular-nums" }}
      autoFocus={autoFocus}
    />
  );
}
