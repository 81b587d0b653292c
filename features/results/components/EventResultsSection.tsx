import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Locale } from "../../../shared/constants.ts";
import { formatNumber } from "../../../shared/format.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import type { EventResultsSummary } from "../results.contract.ts";

/** The table, its views, search and claims: loaded only when the section nears the screen. */
const ResultsBrowser = lazy(() => import("./ResultsBrowser.tsx"));

/**
 * The event page's "Résultats" section (a slot of EventPage): the edition's finisher count and,
 * once the section nears the viewport in the browser, the results themselves. Past editions
 * without results offer members to record theirs; future editions show nothing.
 */
export function EventResultsSection({
  summary,
  started,
  locale,
  canManage = false,
}: {
  summary: EventResultsSummary;
  /** The edition has started (Europe/Paris): results may exist or be recorded. */
  started: boolean;
  locale: Locale;
  /** The edition's owner, organisers and admins (known in the browser only: the page is shared). */
  canManage?: boolean;
}) {
  const { t } = useTranslation("results");
  const ref = useRef<HTMLElement>(null);
  const [near, setNear] = useState(false);
  const withResults = summary.courses.filter((c) => c.entries > 0);

  useEffect(() => {
    const node = ref.current;
    if (!node || near || withResults.length === 0) return;
    if (typeof IntersectionObserver === "undefined") {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: "600px 0px" },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [near, withResults.length]);

  if (!started && withResults.length === 0) return null;
  const firstCourse = summary.courses[0];
  return (
    <section
      ref={ref}
      id="resultats"
      aria-labelledby="results-heading"
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
      data-testid="event-results"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="results-heading" className="font-bold text-ink-900 text-lg sm:text-xl">
          {t("block.heading")}
        </h2>
        {summary.finishers > 0 && (
          <p className="text-ink-700 text-sm" data-testid="results-finishers">
            {t("block.finishers", { count: summary.finishers, formatted: formatNumber(summary.finishers, locale) })}
          </p>
        )}
      </div>
      {withResults.length === 0 ? (
        <div className="mt-2 space-y-3">
          <p className="text-ink-700">{t("block.none")}</p>
          {firstCourse && (
            <a
              href={`${pagePath("results", locale)}?course=${firstCourse.courseId}`}
              className="inline-flex font-semibold text-brand-700 underline underline-offset-2"
            >
              {t("block.record")}
            </a>
          )}
        </div>
      ) : near ? (
        <Suspense fallback={<p className="mt-3 text-ink-700 text-sm">{t("block.loading")}</p>}>
          <ResultsBrowser courses={withResults} locale={locale} canManage={canManage} />
        </Suspense>
      ) : (
        <p className="mt-3 text-ink-700 text-sm">{t("block.loading")}</p>
      )}
    </section>
  );
}
