import { SearchX } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatNumber } from "../../../shared/format.ts";
import type { BroaderSuggestion } from "../broader.ts";

const listFormats = new Map<string, Intl.ListFormat>();
/** "a, b et c" / "a, b and c", one formatter per language. */
function listFormat(locale: string): Intl.ListFormat {
  let format = listFormats.get(locale);
  if (!format) {
    format = new Intl.ListFormat(locale, { type: "conjunction" });
    listFormats.set(locale, format);
  }
  return format;
}

type Props = {
  resetHref?: string;
  /** The nearest broader search that finds races, and its address. */
  broader?: (BroaderSuggestion & { href: string }) | null;
  /** The text of the search, for "without the words …". */
  text?: string;
};

/** The spec's "no results" message, with a broader search that finds races when there is one. */
export function NoResults({ resetHref, broader, text }: Props) {
  const { t, i18n } = useTranslation("landing");
  const { t: tc } = useTranslation("common");
  return (
    <div
      className="flex flex-col items-center rounded-xl border border-slate-300 border-dashed bg-white px-6 py-12 text-center"
      data-testid="no-results"
    >
      <SearchX className="mb-3 size-10 text-brand-600" aria-hidden="true" />
      <p className="font-semibold text-ink-900 text-lg">{tc("errors.noResults")}</p>
      {broader ? (
        <p className="mt-2 text-ink-700" data-testid="broader-search">
          {t("broader.lead")}{" "}
          <Link
            to={broader.href}
            className="font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-600"
          >
            {listFormat(i18n.language).format(
              broader.changes.map((change) => t(`broader.${change}`, { km: broader.radius, text: text ?? "" })),
            )}
          </Link>{" "}
          ({t("broader.count", { count: broader.count, formatted: formatNumber(broader.count, i18n.language) })})
        </p>
      ) : null}
      {resetHref ? (
        <>
          {broader ? null : <p className="mt-1 text-ink-700 text-sm">{t("results.widen")}</p>}
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
