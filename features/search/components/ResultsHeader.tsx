import { LayoutGrid, List, Map as MapIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatNumber } from "../../../shared/format.ts";
import { cx } from "../../../shared/ui/cx.ts";
import type { SearchSort } from "../search.contract.ts";
import { DEFAULT_SORT, hasPlace, SEARCH_VIEWS, type SearchView } from "../search-url.ts";
import { FieldSelect } from "./FieldSelect.tsx";
import { SEARCH_FORM_ID } from "./FilterPanel.tsx";
import type { SearchState } from "./use-search-state.ts";

const VIEW_ICONS = { grid: LayoutGrid, list: List, map: MapIcon } as const;

type Props = {
  state: SearchState;
  total: number;
  /** id of the heading, for the results region's name. */
  headingId: string;
};

/** Result count, sort menu and the grid / list / map switch. */
export function ResultsHeader({ state, total, headingId }: Props) {
  const { t, i18n } = useTranslation("landing");
  const { query, view } = state;
  const sorts: SearchSort[] = [
    "oldest",
    "newest",
    ...(hasPlace(query) ? (["distance"] as const) : []),
    ...(query.q ? (["relevance"] as const) : []),
    "rating",
  ];
  return (
    <div className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-3">
      <h2
        id={headingId}
        // The filter sheet of phones gives it the focus once its search is sent.
        tabIndex={-1}
        className="mr-auto scroll-mt-4 font-bold text-ink-900 text-lg sm:text-xl"
        aria-live="polite"
        data-testid="result-count"
        data-total={total}
      >
        {t("results.count", { count: total, formatted: formatNumber(total, i18n.language) })}
      </h2>
      <div className="flex w-full items-center gap-2 sm:w-auto">
        <FieldSelect
          id="search-sort"
          name="sort"
          form={SEARCH_FORM_ID}
          hideLabel
          label={t("sort.label")}
          options={sorts.map((sort) => ({ value: sort, label: t(`sort.${sort}`) }))}
          value={query.sort ?? DEFAULT_SORT}
          onChange={(sort) => state.apply({ sort: (sort ?? undefined) as SearchSort | undefined })}
          className="min-w-0 flex-1 sm:w-56 sm:flex-none"
        />
        <noscript>
          <button
            type="submit"
            form={SEARCH_FORM_ID}
            className="h-10 rounded-md border border-slate-300 bg-white px-3 font-medium text-sm"
          >
            {t("sort.apply")}
          </button>
        </noscript>
        <nav aria-label={t("views.label")} className="flex shrink-0 rounded-lg border border-slate-300 bg-white p-0.5">
          {SEARCH_VIEWS.map((key: SearchView) => {
            const Icon = VIEW_ICONS[key];
            const current = key === view;
            return (
              <Link
                key={key}
                to={state.href(query, key)}
                preventScrollReset
                aria-current={current ? "page" : undefined}
                data-view={key}
                className={cx(
                  "inline-flex h-9 items-center gap-1.5 rounded-md px-2.5 font-medium text-sm",
                  current ? "bg-ink-900 text-white" : "text-ink-700 hover:bg-slate-100",
                )}
              >
                <Icon className="size-4" aria-hidden="true" />
                <span className="sr-only sm:not-sr-only">{t(`views.${key}`)}</span>
              </Link>
            );
          })}
        </nav>
      </div>
    </div>
  );
}
