import { ChevronLeft, ChevronRight } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { cx } from "../../../shared/ui/cx.ts";
import { pageWindow } from "./pagination.ts";

type Props = {
  page: number;
  pages: number;
  /** The URL of a page of results. */
  hrefFor: (page: number) => string;
};

const ITEM = "inline-flex h-10 min-w-10 items-center justify-center rounded-md px-3 text-sm font-medium";

/** Numbered links to the pages of results, each a real URL rendered by the server. */
export function Pagination({ page, pages, hrefFor }: Props) {
  const { t } = useTranslation("landing");
  if (pages <= 1) return null;
  const items = pageWindow(page, pages);
  return (
    <nav aria-label={t("pagination.label")} className="mt-8 flex justify-center" data-testid="pagination">
      <ul className="flex flex-wrap items-center justify-center gap-1">
        <li>
          {page > 1 ? (
            <Link
              to={hrefFor(page - 1)}
              rel="prev"
              className={cx(ITEM, "gap-1 border border-slate-300 bg-white text-ink-900 hover:bg-slate-100")}
            >
              <ChevronLeft className="size-4" aria-hidden="true" />
              <span className="sr-only sm:not-sr-only">{t("pagination.previous")}</span>
            </Link>
          ) : null}
        </li>
        {items.map((item, index) =>
          item === null ? (
            <li key={`gap-${index}`} aria-hidden="true" className="px-1 text-ink-500">
              …
            </li>
          ) : (
            <li key={item}>
              <Link
                to={hrefFor(item)}
                aria-current={item === page ? "page" : undefined}
                aria-label={t("pagination.page", { page: item })}
                className={cx(
                  ITEM,
                  item === page
                    ? "bg-ink-900 text-white"
                    : "border border-slate-300 bg-white text-ink-900 hover:bg-slate-100",
                )}
              >
                {item}
              </Link>
            </li>
          ),
        )}
        <li>
          {page < pages ? (
            <Link
              to={hrefFor(page + 1)}
              rel="next"
              className={cx(ITEM, "gap-1 border border-slate-300 bg-white text-ink-900 hover:bg-slate-100")}
            >
              <span className="sr-only sm:not-sr-only">{t("pagination.next")}</span>
              <ChevronRight className="size-4" aria-hidden="true" />
            </Link>
          ) : null}
        </li>
      </ul>
    </nav>
  );
}
