import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { type FieldBinding, TextField } from "../../../shared/ui/fields.tsx";

/** The member's current password (sign-in, or confirming a sensitive change). */
export function CurrentPasswordField({
  field,
  label,
  required,
  className,
}: {
  field: FieldBinding;
  label?: string;
  required?: boolean;
  className?: string;
}) {
  const { t } = useTranslation("account");
  return (
    <TextField
      field={field}
      type="password"
      label={label ?? t("fields.currentPassword")}
      autoComplete="current-password"
      required={required}
      className={className}
    />
  );
}

/** A new password and its confirmation (registration, reset, settings). */
export function NewPasswordFields({
  password,
  confirmation,
  label,
  hint,
  required,
}: {
  password: FieldBinding;
  confirmation: FieldBinding;
  label: string;
  hint?: ReactNode;
  required?: boolean;
}) {
  const { t } = useTranslation("account");
  return (
    <>
      <TextField
        field={password}
        type="password"
        label={label}
        autoComplete="new-password"
        required={required}
        hint={hint}
      />
      <TextField
        field={confirmation}
        type="password"
        label={t("fields.passwordConfirmation")}
        autoComplete="new-password"
        required={required}
      />
    </>
  );
}
