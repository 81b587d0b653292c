import { CircleAlert } from "lucide-react";
import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from "react";
import { cx } from "./cx.ts";

export const INPUT_CLASS =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-ink-900 shadow-sm placeholder:text-slate-500 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 aria-[invalid=true]:border-red-700 aria-[invalid=true]:ring-red-700/20";
export const PRIMARY_BUTTON =
  "inline-flex items-center justify-center gap-2 rounded-lg bg-brand-700 px-4 py-2.5 font-semibold text-white shadow-sm hover:bg-brand-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait disabled:opacity-70";
export const SECONDARY_BUTTON =
  "inline-flex items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2.5 font-semibold text-ink-900 hover:bg-slate-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-70";
export const DANGER_BUTTON =
  "inline-flex items-center justify-center gap-2 rounded-lg bg-red-700 px-4 py-2.5 font-semibold text-white hover:bg-red-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700 disabled:opacity-70";
export const LABEL_CLASS = "mb-1 block font-medium text-ink-900 text-sm";
export const HINT_CLASS = "mt-1 text-ink-500 text-sm";
const CHECKBOX_CLASS = "mt-0.5 h-4 w-4 shrink-0 accent-brand-700";

/**
 * A field of a form of the form layer (Conform's field metadata from useApiForm): its name, ids,
 * error and the value to show again after a submission. Any of TextField & co takes one.
 */
export type FieldBinding = {
  id: string;
  name: string;
  errorId: string;
  key?: string | undefined;
  errors?: string[] | undefined;
  defaultValue?: string | undefined;
  defaultChecked?: boolean | undefined;
  /** The contract's limits (shared/ui/form/constraints.ts), put on the input. */
  required?: boolean | undefined;
  minLength?: number | undefined;
  maxLength?: number | undefined;
  min?: string | number | undefined;
  max?: string | number | undefined;
};

/** The HTML limits a bound field carries; the control's own props may still override them. */
function limits(field: FieldBinding | undefined) {
  if (!field) return {};
  const { required, minLength, maxLength, min, max } = field;
  return { required, minLength, maxLength, min, max };
}

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

/** What the control inside a FieldFrame spreads: its id and the ties to its hint and error. */
export type ControlProps = {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
};

type FrameProps = {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  /** A hint laid out by the caller (a counter beside the text). */
  hintClassName?: string;
  className?: string;
  children: (control: ControlProps) => ReactNode;
};

/** A label, the control, its hint and its error, tied together for screen readers. */
export function FieldFrame({ id, label, error, hint, hintClassName, className, children }: FrameProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = `${id}-error`;
  return (
    <div className={className}>
      <label htmlFor={id} className={LABEL_CLASS}>
        {label}
      </label>
      {children({
        id,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": [hintId, error ? errorId : null].filter(Boolean).join(" ") || undefined,
      })}
      {hint && (
        <p id={hintId} className={hintClassName ?? HINT_CLASS}>
          {hint}
        </p>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

type Bound = { field?: FieldBinding; name?: string; error?: string; id?: string };

/** Name, id, error and shown value of a control: from its form field, else from its own props. */
function useBinding({ field, name, error, id }: Bound, prefix: string) {
  const auto = useId();
  return {
    id: id ?? field?.id ?? `${name ?? prefix}-${auto}`,
    name: name ?? field?.name,
    error: error ?? field?.errors?.[0],
    key: field?.key,
  };
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "name"> &
  Bound & { label: ReactNode; hint?: ReactNode };

/** A labelled input with its hint and error tied to it for screen readers. */
export function TextField({ field, name, label, error, hint, id, className, defaultValue, ...input }: TextFieldProps) {
  const bound = useBinding({ field, name, error, id }, "field");
  return (
    <FieldFrame id={bound.id} label={label} error={bound.error} hint={hint} className={className}>
      {(control) => (
        <input
          key={bound.key}
          name={bound.name}
          defaultValue={defaultValue ?? (input.type === "password" ? undefined : field?.defaultValue)}
          className={INPUT_CLASS}
          {...limits(field)}
          {...control}
          {...input}
        />
      )}
    </FieldFrame>
  );
}

/** An email address: the right keyboard on phones, the browser's autofill. */
export function EmailField(props: Omit<TextFieldProps, "type" | "inputMode">) {
  return <TextField type="email" autoComplete="email" inputMode="email" {...props} />;
}

type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name"> &
  Bound & { label: ReactNode; hint?: ReactNode; hintClassName?: string };

export function TextAreaField({
  field,
  name,
  label,
  error,
  hint,
  hintClassName,
  id,
  className,
  defaultValue,
  ...area
}: TextAreaFieldProps) {
  const bound = useBinding({ field, name, error, id }, "text");
  return (
    <FieldFrame
      id={bound.id}
      label={label}
      error={bound.error}
      hint={hint}
      hintClassName={hintClassName}
      className={className}
    >
      {(control) => (
        <textarea
          key={bound.key}
          name={bound.name}
          defaultValue={defaultValue ?? field?.defaultValue}
          className={INPUT_CLASS}
          required={field?.required}
          minLength={field?.minLength}
          maxLength={field?.maxLength}
          {...control}
          {...area}
        />
      )}
    </FieldFrame>
  );
}

type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, "name"> &
  Bound & { label: ReactNode; hint?: ReactNode; children: ReactNode };

/** A native <select> with its label, hint and error. */
export function SelectField({
  field,
  name,
  label,
  error,
  hint,
  id,
  className,
  defaultValue,
  ...select
}: SelectFieldProps) {
  const bound = useBinding({ field, name, error, id }, "select");
  return (
    <FieldFrame id={bound.id} label={label} error={bound.error} hint={hint} className={className}>
      {(control) => (
        <select
          key={bound.key}
          name={bound.name}
          defaultValue={defaultValue ?? field?.defaultValue}
          className={INPUT_CLASS}
          required={field?.required}
          {...control}
          {...select}
        />
      )}
    </FieldFrame>
  );
}

type CheckboxFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "type"> &
  Bound & {
    label: ReactNode;
    /** A second line under the label. */
    description?: ReactNode;
    inputClassName?: string;
    labelClassName?: string;
  };

/** A checkbox with its label beside it and its error under it. */
export function CheckboxField({
  field,
  name,
  label,
  description,
  error,
  id,
  className,
  inputClassName,
  labelClassName,
  defaultChecked,
  ...input
}: CheckboxFieldProps) {
  const bound = useBinding({ field, name, error, id }, "check");
  const errorId = `${bound.id}-error`;
  return (
    <div className={className}>
      <label className={labelClassName ?? "flex items-start gap-2 text-sm"}>
        <input
          key={bound.key}
          id={bound.id}
          type="checkbox"
          name={bound.name}
          defaultChecked={defaultChecked ?? field?.defaultChecked}
          required={field?.required}
          className={inputClassName ?? CHECKBOX_CLASS}
          aria-invalid={bound.error ? true : undefined}
          aria-describedby={bound.error ? errorId : undefined}
          {...input}
        />
        {description ? (
          <span>
            <span className="block font-medium text-ink-900">{label}</span>
            <span className="block text-ink-700 text-sm">{description}</span>
          </span>
        ) : (
          <span>{label}</span>
        )}
      </label>
      <FieldError id={errorId} message={bound.error} />
    </div>
  );
}

/** An alert above a form for errors that belong to no single field. */
export function FormError({ message }: { message: string | null | undefined }) {
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

/** A form's submit button, disabled (and optionally relabelled) while the form is being sent. */
export function SubmitButton({
  pending = false,
  pendingLabel,
  danger = false,
  className,
  children,
}: {
  pending?: boolean;
  pendingLabel?: ReactNode;
  danger?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button type="submit" className={cx(danger ? DANGER_BUTTON : PRIMARY_BUTTON, className)} disabled={pending}>
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  );
}

/** The end of a form: its error about no single field, then send and cancel. */
export function FormFooter({
  form,
  submit,
  cancel,
  onCancel,
  danger,
}: {
  form: { formError: string | null; pending: boolean };
  submit: ReactNode;
  cancel: ReactNode;
  onCancel: () => void;
  danger?: boolean;
}) {
  return (
    <>
      <FormError message={form.formError} />
      <div className="flex flex-wrap gap-2">
        <SubmitButton danger={danger} pending={form.pending}>
          {submit}
        </SubmitButton>
        <button type="button" className={SECONDARY_BUTTON} onClick={onCancel}>
          {cancel}
        </button>
      </div>
    </>
  );
}
