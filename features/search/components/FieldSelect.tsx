import { lazy, Suspense } from "react";
import { FIELD_LABEL_CLASS } from "../../../shared/ui/FieldLabel.tsx";
import type { OptionValue, SelectOption } from "../../../shared/ui/Select.tsx";
import { useHydrated } from "../../../shared/ui/use-hydrated.ts";

// The UI kit's Select loads after hydration; the native select serves until then.
const Select = lazy(() => import("../../../shared/ui/select-lazy.ts").then((module) => ({ default: module.Select })));

type Common = {
  id: string;
  /** Form field name: the search query name. */
  name: string;
  label: string;
  options: SelectOption[];
  placeholder?: string;
  /** Label of the "any" choice. */
  nullValueText?: string;
  parentValue?: OptionValue | null;
  searchable?: boolean;
  disabled?: boolean;
  /** A <form> the plain select belongs to when it sits outside it (the sort menu). */
  form?: string;
  /** Show the label to screen readers only. */
  hideLabel?: boolean;
  size?: "sm" | "md";
  className?: string;
};

type Single = Common & {
  multiple?: false;
  value: string | null;
  onChange: (value: string | null) => void;
};
type Multiple = Common & {
  multiple: true;
  value: string[];
  onChange: (value: string[]) => void;
};

const NATIVE_CLASS =
  "h-10 w-full rounded-md border border-gray-400 bg-white px-3 text-base text-gray-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 disabled:bg-gray-100";

const NATIVE_SMALL =
  "h-8 w-full rounded-md border border-gray-400 bg-white px-2 text-sm text-gray-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 disabled:bg-gray-100";

/**
 * A select of the filter panel: the UI kit's Select once hydrated, a native <select> before (and
 * without JavaScript), both submitting the same field name with a plain GET form.
 */
export function FieldSelect(props: Single | Multiple) {
  const hydrated = useHydrated();
  const {
    id,
    name,
    label,
    options,
    placeholder,
    nullValueText,
    parentValue,
    searchable,
    disabled,
    hideLabel,
    size = "md",
  } = props;

  const visible =
    parentValue === undefined || parentValue === null || parentValue === ""
      ? options
      : options.filter((o) => o.parent == null || String(o.parent) === String(parentValue));
  const native = (
    <div className={props.className}>
      <label htmlFor={id} className={hideLabel ? "sr-only" : FIELD_LABEL_CLASS}>
        {label}
      </label>
      {props.multiple ? (
        <select
          id={id}
          name={name}
          multiple
          defaultValue={props.value}
          disabled={disabled}
          form={props.form}
          className={NATIVE_CLASS}
        >
          {visible.map((o) => (
            <option key={String(o.value)} value={String(o.value)}>
              {o.label}
            </option>
          ))}
        </select>
      ) : (
        <select
          id={id}
          name={name}
          defaultValue={props.value ?? ""}
          disabled={disabled}
          form={props.form}
          className={size === "sm" ? NATIVE_SMALL : NATIVE_CLASS}
        >
          {nullValueText ? <option value="">{nullValueText}</option> : null}
          {visible.map((o) => (
            <option key={String(o.value)} value={String(o.value)}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </div>
  );
  if (!hydrated) return native;

  const shared = {
    id,
    options,
    placeholder,
    nullValueText,
    parentValue,
    searchable,
    disabled,
    size,
    color: "orange" as const,
    className: props.className,
    ...(hideLabel ? { "aria-label": label } : { label }),
  };
  if (props.multiple) {
    return (
      <Suspense fallback={native}>
        <Select
          {...shared}
          name={name}
          multiple
          value={props.value}
          onChange={(value) => props.onChange(value.map(String))}
        />
      </Suspense>
    );
  }
  return (
    <Suspense fallback={native}>
      <Select
        {...shared}
        // The sort menu lives outside the form: its value travels through the URL, not a hidden input.
        name={props.form ? undefined : name}
        value={props.value}
        onChange={(value) => props.onChange(value === null || value === "" ? null : String(value))}
      />
    </Suspense>
  );
}
