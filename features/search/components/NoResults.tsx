import { SearchX } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/** The spec's "no results" message, with a way out when filters caused it. */
export function NoResults({ resetHref }: { resetHref?: string }) {
  const { t } = useTranslation("landing");
  const { t: tc } = useTranslation("common");
  return (
    <div
      className="flex flex-col items-center rounded-xl border border-slate-300 border-dashed bg-white px-6 py-12 text-center"
      data-testid="no-results"
    >
      <SearchX className="mb-3 size-10 text-brand-600" aria-hidden="true" />
      <p className="font-semibold text-ink-900 text-lg">{tc("errors.noResults")}</p>
      {resetHref ? (
        <>
          <p className="mt-1 text-ink-700 text-sm">{t("results.widen")}</p>
          <Link
            to={resetHref}
            className="mt-4 rounded-lg bg-brand-700 px-4 py-2 font-semibold text-sm text-white hover:bg-brand-600"
          >
            {t("filters.reset")}
          </Link>
        </>
      ) : null}
    </div>
  );
}
