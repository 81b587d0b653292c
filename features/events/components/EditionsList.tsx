import { ChevronRight } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Locale } from "../../../shared/constants.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import type { Edition } from "../event-detail.contract.ts";
import { formatLongDateRange } from "./event-format.ts";
import { StatusBadge } from "./StatusBadge.tsx";

function EditionLinks({ editions, locale }: { editions: Edition[]; locale: Locale }) {
  return (
    <ul className="mt-2 divide-y divide-slate-100">
      {editions.map((e) => (
        <li key={e.id}>
          <Link
            to={pagePath("event", locale, { slug: e.slug })}
            className="-mx-2 flex items-center gap-3 rounded-lg px-2 py-2.5 hover:bg-slate-50"
          >
            <span className="w-12 shrink-0 font-bold text-ink-900 text-lg tabular-nums">{e.startDate.slice(0, 4)}</span>
            <span className="min-w-0 flex-1">
              <span className="block truncate font-medium text-ink-900 text-sm">{e.name}</span>
              <span className="block text-ink-700 text-xs first-letter:uppercase">
                {formatLongDateRange(e.startDate, e.endDate, locale)}
              </span>
            </span>
            {e.state !== "upcoming" && e.state !== "finished" && <StatusBadge state={e.state} />}
            <ChevronRight className="h-4 w-4 shrink-0 text-ink-500" aria-hidden="true" />
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The other editions of the race series, upcoming first, then the previous ones (latest first). */
export function EditionsList({ editions, locale, today }: { editions: Edition[]; locale: Locale; today: string }) {
  const { t } = useTranslation("event");
  if (editions.length === 0) return null;
  const upcoming = editions.filter((e) => e.endDate >= today);
  const past = editions.filter((e) => e.endDate < today).reverse();
  return (
    <section
      aria-labelledby="editions-heading"
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <h2 id="editions-heading" className="font-bold text-ink-900 text-lg">
        {t("editions.heading")}
      </h2>
      {upcoming.length > 0 && (
        <>
          <h3 className="mt-3 font-semibold text-ink-500 text-xs uppercase tracking-wide">{t("editions.upcoming")}</h3>
          <EditionLinks editions={upcoming} locale={locale} />
        </>
      )}
      {past.length > 0 && (
        <>
          <h3 className="mt-3 font-semibold text-ink-500 text-xs uppercase tracking-wide">{t("editions.past")}</h3>
          <EditionLinks editions={past} locale={locale} />
        </>
      )}
    </section>
  );
}
