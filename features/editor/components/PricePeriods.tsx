import { Plus, Trash2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { DateField } from "../../../shared/ui/DateField.tsx";
import { BoxError, FieldBox, fieldId, LINK_BUTTON, TextInput } from "./controls.tsx";
import { emptyPrice, type PriceDraft } from "./form-model.ts";

type Props = {
  /** "courses.0" */
  base: string;
  courseName: string;
  prices: PriceDraft[];
  onChange: (prices: PriceDraft[]) => void;
  errors: Record<string, string>;
};

/** A course's prices by period (label, first and last day, price in euros). */
export function PricePeriods({ base, courseName, prices, onChange, errors }: Props) {
  const { t } = useTranslation("editor");
  const set = (index: number, patch: Partial<PriceDraft>) =>
    onChange(prices.map((p, i) => (i === index ? { ...p, ...patch } : p)));
  return (
    <fieldset className="space-y-3">
      <legend className="font-semibold text-ink-900">{t("courses.prices.heading")}</legend>
      <p className="text-ink-500 text-sm">{t("courses.prices.hint")}</p>
      {prices.length === 0 ? <p className="text-ink-700 text-sm">{t("courses.prices.none")}</p> : null}
      <ol className="space-y-3">
        {prices.map((price, index) => {
          const path = `${base}.prices.${index}`;
          const name = price.label.trim() || t("courses.prices.periodNumber", { n: index + 1 });
          return (
            <li
              key={price.key}
              className="rounded-lg border border-slate-200 bg-slate-50 p-3"
              data-testid="price-period"
            >
              <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_auto_auto_1fr]">
                <TextInput
                  path={`${path}.label`}
                  label={t("courses.prices.label")}
                  placeholder={t("courses.prices.labelPlaceholder")}
                  value={price.label}
                  onChange={(label) => set(index, { label })}
                  error={errors[`${path}.label`]}
                  required
                  maxLength={80}
                />
                <FieldBox path={`${path}.startsOn`}>
                  <DateField
                    id={fieldId(`${path}.startsOn`)}
                    label={t("courses.prices.startsOn")}
                    value={price.startsOn}
                    min="2017-01-01"
                    onChange={(startsOn) => set(index, { startsOn })}
                  />
                  <BoxError path={`${path}.startsOn`} error={errors[`${path}.startsOn`]} />
                </FieldBox>
                <FieldBox path={`${path}.endsOn`}>
                  <DateField
                    id={fieldId(`${path}.endsOn`)}
                    label={t("courses.prices.endsOn")}
                    value={price.endsOn}
                    min="2017-01-01"
                    onChange={(endsOn) => set(index, { endsOn })}
                  />
                  <BoxError path={`${path}.endsOn`} error={errors[`${path}.endsOn`]} />
                </FieldBox>
                <TextInput
                  path={`${path}.price`}
                  label={t("courses.prices.price")}
                  value={price.price}
                  onChange={(value) => set(index, { price: value })}
                  error={errors[`${path}.price`]}
                  inputMode="decimal"
                  suffix="€"
                  required
                />
              </div>
              <button
                type="button"
                className={`${LINK_BUTTON} mt-2`}
                onClick={() => onChange(prices.filter((_, i) => i !== index))}
              >
                <Trash2 className="h-4 w-4" aria-hidden="true" />
                {t("courses.prices.remove", { name })}
              </button>
            </li>
          );
        })}
      </ol>
      <button type="button" className={LINK_BUTTON} onClick={() => onChange([...prices, emptyPrice()])}>
        <Plus className="h-4 w-4" aria-hidden="true" />
        {courseName ? t("courses.prices.addFor", { name: courseName }) : t("courses.prices.add")}
      </button>
    </fieldset>
  );
}
