/**
 * The editor's labelled controls. Each sits in a box marked with its field path (`data-field`),
 * which is how an error, from the browser's checks or the server's, finds its field to show
 * beside and to focus. Errors are text with an icon, tied to the control by aria-describedby.
 */
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { cx } from "../../../shared/ui/cx.ts";
import {
  FieldError,
  FieldFrame,
  HINT_CLASS,
  INPUT_CLASS,
  LABEL_CLASS,
  TextAreaField,
} from "../../../shared/ui/fields.tsx";

/** The DOM id of a field path's control: "courses.0.name" → "ef-courses-0-name". */
export function fieldId(path: string): string {
  return `ef-${path.replace(/[^A-Za-z0-9_-]+/g, "-")}`;
}

export { HINT_CLASS, LABEL_CLASS };
export const CARD_CLASS = "rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6";
export const LINK_BUTTON =
  "inline-flex items-center gap-1 rounded-md px-2 py-1.5 text-left font-semibold text-brand-800 text-sm hover:bg-brand-50 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:text-slate-500 disabled:no-underline disabled:hover:bg-transparent";

export function RequiredMark() {
  const { t } = useTranslation("editor");
  return (
    <>
      <span aria-hidden="true" className="ml-0.5 text-red-800">
        *
      </span>
      <span className="sr-only"> ({t("form.required")})</span>
    </>
  );
}

type BoxProps = { path: string; className?: string; children: ReactNode };

/** Where a field's error is looked for: the first control inside gets the focus. */
export function FieldBox({ path, className, children }: BoxProps) {
  return (
    <div data-field={path} className={className}>
      {children}
    </div>
  );
}

/** What the editor's text controls take: a field path, a label, a value and its changes. */
type TextControlProps = {
  path: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: ReactNode;
  boxClassName?: string;
};

type TextInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value" | "id"> &
  TextControlProps & {
    /** A unit shown after the input ("km", "€"). */
    suffix?: ReactNode;
    required?: boolean;
  };

export function TextInput({
  path,
  label,
  value,
  onChange,
  error,
  hint,
  suffix,
  required,
  boxClassName,
  className,
  ...input
}: TextInputProps) {
  return (
    <FieldBox path={path} className={boxClassName}>
      <FieldFrame id={fieldId(path)} label={<LabelText label={label} required={required} />} error={error} hint={hint}>
        {(control) => (
          <div className="relative">
            <input
              {...control}
              value={value}
              onChange={(event) => onChange(event.target.value)}
              aria-required={required || undefined}
              className={cx(INPUT_CLASS, suffix ? "pr-12" : null, className)}
              {...input}
            />
            {suffix ? (
              <span
                aria-hidden="true"
                className="-translate-y-1/2 pointer-events-none absolute top-1/2 right-3 text-ink-500 text-sm"
              >
                {suffix}
              </span>
            ) : null}
          </div>
        )}
      </FieldFrame>
    </FieldBox>
  );
}

function LabelText({ label, required }: { label: ReactNode; required?: boolean }) {
  return (
    <>
      {label}
      {required ? <RequiredMark /> : null}
    </>
  );
}

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "onChange" | "value" | "id"> & TextControlProps;

export function TextArea({ path, label, value, onChange, error, hint, boxClassName, ...area }: TextAreaProps) {
  return (
    <FieldBox path={path} className={boxClassName}>
      <TextAreaField
        id={fieldId(path)}
        label={label}
        error={error}
        hint={hint}
        value={value}
        rows={3}
        onChange={(event) => onChange(event.target.value)}
        {...area}
      />
    </FieldBox>
  );
}

type CheckProps = {
  path: string;
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string;
  hint?: ReactNode;
  /** Shown as an on/off switch (role="switch"). */
  toggle?: boolean;
  required?: boolean;
  className?: string;
};

export function Check({ path, label, checked, onChange, error, hint, toggle, required, className }: CheckProps) {
  const id = fieldId(path);
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <FieldBox path={path} className={className}>
      <div className="flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          role={toggle ? "switch" : undefined}
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-required={required || undefined}
          aria-describedby={described || undefined}
          className={cx(
            "shrink-0 cursor-pointer accent-brand-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700",
            toggle ? "peer sr-only" : "mt-0.5 h-5 w-5",
          )}
        />
        {toggle ? (
          // The switch's look; the checkbox above (visually hidden) carries the state and the focus.
          <span
            aria-hidden="true"
            onClick={() => onChange(!checked)}
            className="relative mt-0.5 inline-block h-6 w-11 shrink-0 cursor-pointer rounded-full bg-slate-500 transition-colors after:absolute after:top-0.5 after:left-0.5 after:h-5 after:w-5 after:rounded-full after:bg-white after:shadow after:transition-transform peer-checked:bg-brand-700 peer-checked:after:translate-x-5 peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-700"
          />
        ) : null}
        <label htmlFor={id} className="cursor-pointer text-ink-900 text-sm">
          <span className="font-medium">{label}</span>
          {required ? <RequiredMark /> : null}
          {toggle ? (
            <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 font-semibold text-ink-700 text-xs">
              {checked ? <YesNo yes /> : <YesNo yes={false} />}
            </span>
          ) : null}
        </label>
      </div>
      {hint ? (
        <p id={`${id}-hint`} className={cx(HINT_CLASS, toggle ? "ml-14" : "ml-8")}>
          {hint}
        </p>
      ) : null}
      <div className={toggle ? "ml-14" : "ml-8"}>
        <FieldError id={`${id}-error`} message={error} />
      </div>
    </FieldBox>
  );
}

function YesNo({ yes }: { yes: boolean }) {
  const { t } = useTranslation("editor");
  return <>{yes ? t("form.yes") : t("form.no")}</>;
}

type RadioGroupProps<V extends string> = {
  path: string;
  legend: ReactNode;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  error?: string;
  className?: string;
};

/** Choices shown side by side as pills (a plain radio group underneath). */
export function RadioGroup<V extends string>({
  path,
  legend,
  value,
  options,
  onChange,
  error,
  className,
}: RadioGroupProps<V>) {
  const id = fieldId(path);
  return (
    <FieldBox path={path} className={className}>
      <fieldset aria-describedby={error ? `${id}-error` : undefined}>
        <legend className={LABEL_CLASS}>{legend}</legend>
        <div className="flex flex-wrap gap-2">
          {options.map((option) => (
            <label
              key={option.value}
              className={cx(
                "inline-flex cursor-pointer items-center gap-2 rounded-full border px-3 py-1.5 text-sm has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-700",
                option.value === value
                  ? "border-brand-700 bg-brand-50 font-semibold text-brand-800"
                  : "border-slate-300 bg-white text-ink-700 hover:bg-slate-50",
              )}
            >
              <input
                type="radio"
                name={id}
                value={option.value}
                checked={option.value === value}
                onChange={() => onChange(option.value)}
                className="h-4 w-4 accent-brand-700 focus:outline-none"
              />
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
      <FieldError id={`${id}-error`} message={error} />
    </FieldBox>
  );
}

/** The error of a custom control (Select, DateField, DurationInput) placed under it. */
export function BoxError({ path, error }: { path: string; error?: string }) {
  return <FieldError id={`${fieldId(path)}-error`} message={error} />;
}
