import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { FIELD_LABEL_CLASS } from "../../../shared/ui/FieldLabel.tsx";
import { useHydrated } from "../../../shared/ui/use-hydrated.ts";

// The picker (and react-calendar) loads after hydration: the native inputs serve until then.
const DateRangePicker = lazy(() =>
  import("../../../shared/ui/DateRangePicker.tsx").then((module) => ({ default: module.DateRangePicker })),
);

type Props = {
  from?: string;
  to?: string;
  /** Future mode (today to five years ahead) unless finished races are included. */
  future: boolean;
  onChange: (range: { from?: string; to?: string }) => void;
};

const DATE_INPUT =
  "h-10 w-full min-w-0 rounded-md border border-gray-400 bg-white px-2 text-sm text-gray-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600";

/**
 * The date range: the UI kit's picker with quick ranges once hydrated; two native date inputs
 * before (and without JavaScript). Both submit `from` and `to`.
 */
export function DatesField({ from, to, future, onChange }: Props) {
  const { t } = useTranslation("landing");
  const hydrated = useHydrated();
  const native = (
    <fieldset className="min-w-0 border-0 p-0">
      <legend className={FIELD_LABEL_CLASS}>{t("filters.dates")}</legend>
      <div className="grid grid-cols-2 gap-2">
        <label className="min-w-0 text-gray-700 text-xs">
          <span className="sr-only">{t("filters.from")}</span>
          <input type="date" name="from" defaultValue={from} className={DATE_INPUT} />
        </label>
        <label className="min-w-0 text-gray-700 text-xs">
          <span className="sr-only">{t("filters.to")}</span>
          <input type="date" name="to" defaultValue={to} className={DATE_INPUT} />
        </label>
      </div>
    </fieldset>
  );
  if (!hydrated) return native;
  const value = from ? { startDate: from, endDate: to ?? from } : null;
  return (
    <Suspense fallback={native}>
      <DateRangePicker
        id="search-dates"
        label={t("filters.dates")}
        value={value}
        future={future ? true : undefined}
        placeholder={t("filters.anyDate")}
        onChange={(range) => onChange(range ? { from: range.startDate, to: range.endDate } : {})}
      />
      {from ? <input type="hidden" name="from" value={from} /> : null}
      {to ? <input type="hidden" name="to" value={to} /> : null}
    </Suspense>
  );
}
