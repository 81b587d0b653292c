import { Check } from "lucide-react";
import { FIELD_LABEL_CLASS } from "../../../shared/ui/FieldLabel.tsx";

export type Chip = { value: string; label: string; count?: number };

type Props = {
  legend: string;
  /** Form field name: checked chips submit `name=value` each, like a native multiple choice. */
  name: string;
  chips: Chip[];
  values: readonly string[];
  onChange: (values: string[]) => void;
};

/** Check boxes drawn as chips; the tick (not only the colour) shows which are on. */
export function ChipGroup({ legend, name, chips, values, onChange }: Props) {
  const toggle = (value: string, on: boolean) =>
    onChange(on ? [...values.filter((v) => v !== value), value] : values.filter((v) => v !== value));
  return (
    <fieldset className="min-w-0 border-0 p-0">
      <legend className={FIELD_LABEL_CLASS}>{legend}</legend>
      <div className="flex flex-wrap gap-1.5">
        {chips.map((chip) => {
          const checked = values.includes(chip.value);
          return (
            <label key={chip.value} className="relative cursor-pointer">
              <input
                type="checkbox"
                name={name}
                value={chip.value}
                checked={checked}
                onChange={(event) => toggle(chip.value, event.target.checked)}
                className="peer sr-only"
              />
              <span className="flex items-center gap-1 rounded-full border border-slate-300 bg-white px-3 py-1.5 text-ink-900 text-sm transition peer-checked:border-brand-700 peer-checked:bg-brand-700 peer-checked:text-white peer-focus-visible:ring-2 peer-focus-visible:ring-blue-600 peer-focus-visible:ring-offset-1 hover:border-brand-600">
                {checked ? <Check className="size-3.5" aria-hidden="true" /> : null}
                <span>{chip.label}</span>
                {chip.count !== undefined ? (
                  <span className={checked ? "text-white/90 text-xs" : "text-ink-500 text-xs"}>{chip.count}</span>
                ) : null}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
