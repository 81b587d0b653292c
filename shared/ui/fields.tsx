import { CircleAlert } from "lucide-react";
import { type InputHTMLAttributes, type ReactNode, useId } from "react";

export const INPUT_CLASS =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-ink-900 shadow-sm placeholder:text-slate-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 aria-[invalid=true]:border-red-700 aria-[invalid=true]:ring-red-700/20";
export const PRIMARY_BUTTON =
  "inline-flex items-center justify-center gap-2 rounded-lg bg-brand-700 px-4 py-2.5 font-semibold text-white shadow-sm hover:bg-brand-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait disabled:opacity-70";
export const SECONDARY_BUTTON =
  "inline-flex items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2.5 font-semibold text-ink-900 hover:bg-slate-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-70";
export const DANGER_BUTTON =
  "inline-flex items-center justify-center gap-2 rounded-lg bg-red-700 px-4 py-2.5 font-semibold text-white hover:bg-red-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700 disabled:opacity-70";

/** A field's error: an icon and text (never colour alone), announced with the field. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 flex items-start gap-1 text-red-800 text-sm" data-testid="field-error">
      <CircleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <span>{message}</span>
    </p>
  );
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "name"> & {
  name: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
};

/** A labelled input with its hint and error tied to it for screen readers. */
export function TextField({ name, label, error, hint, id, className, ...input }: TextFieldProps) {
  const auto = useId();
  const inputId = id ?? `${name}-${auto}`;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = `${inputId}-error`;
  return (
    <div className={className}>
      <label htmlFor={inputId} className="mb-1 block font-medium text-ink-900 text-sm">
        {label}
      </label>
      <input
        id={inputId}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, error ? errorId : null].filter(Boolean).join(" ") || undefined}
        className={INPUT_CLASS}
        {...input}
      />
      {hint && (
        <p id={hintId} className="mt-1 text-ink-500 text-sm">
          {hint}
        </p>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/** An alert above a form for errors that belong to no single field. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div
      role="alert"
      className="flex items-start gap-2 rounded-lg border border-red-300 bg-red-50 p-3 text-red-900 text-sm"
    >
      <CircleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <span>{message}</span>
    </div>
  );
}

/** Reads a form's named inputs as a plain object (checkboxes as booleans). */
export function formValues(form: HTMLFormElement): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {};
  for (const element of Array.from(form.elements)) {
    if (
      !(
        element instanceof HTMLInputElement ||
        element instanceof HTMLTextAreaElement ||
        element instanceof HTMLSelectElement
      )
    )
      continue;
    if (!element.name) continue;
    if (element instanceof HTMLInputElement && element.type === "checkbox") values[element.name] = element.checked;
    else if (element instanceof HTMLInputElement && element.type === "radio") {
      if (element.checked) values[element.name] = element.value;
    } else values[element.name] = element.value;
  }
  return values;
}
