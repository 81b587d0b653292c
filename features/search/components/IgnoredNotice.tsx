import { TriangleAlert } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { SearchField } from "../search-url.ts";

/** Says which filters of the URL were left out because their value was refused. */
export function IgnoredNotice({ fields }: { fields: readonly SearchField[] }) {
  const { t } = useTranslation("landing");
  const unique = [...new Set(fields)];
  if (unique.length === 0) return null;
  const names = unique.map((field) => t(`fields.${field}`)).join(", ");
  return (
    <div
      role="status"
      data-testid="ignored-filters"
      className="mb-4 flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950 text-sm"
    >
      <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <p>{t("results.ignored", { count: unique.length, fields: names })}</p>
    </div>
  );
}
