import { Star } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { callApi } from "../../../shared/api-client.ts";
import { RATING_CRITERIA } from "../../../shared/constants.ts";
import { formatNumber } from "../../../shared/format.ts";
import { loginHref } from "../../../shared/i18n/pages.ts";
import { Dialog } from "../../../shared/ui/Dialog.tsx";
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import { Stars } from "../../../shared/ui/Stars.tsx";
import { useViewer } from "../../identity/components/viewer.tsx";
import type { RatingSummary } from "../ratings.contract.ts";
import { RatingForm } from "./RatingForm.tsx";

type Props = {
  event: { id: number; name: string; startDate: string };
  /** The edition's stored aggregate, from the (shared) page: the same for everyone. */
  initial: { average: number | null; count: number };
  /** Today in France (the page's loader): an edition can be rated from its first day. */
  today: string;
  locale: "fr" | "en";
  eventPath: string;
};

/**
 * The event page's ratings: average (stars and its value in words), count, per-criterion bars and,
 * after the race, the member's "rate this race" dialog. The page is shared by every visitor
 * (decision 024): the breakdown and the member's own rating come from GET /api/rating/{id} once
 * the page runs in the browser.
 */
export function RatingBlock({ event, initial, today, locale, eventPath }: Props) {
  const { t } = useTranslation("community");
  const viewer = useViewer();
  const [summary, setSummary] = useState<RatingSummary | null>(null);
  const [open, setOpen] = useState(false);
  const started = event.startDate <= today;
  const member = viewer.status === "member" ? viewer.user : null;

  useEffect(() => {
    if (viewer.status === "loading") return;
    let live = true;
    callApi<RatingSummary>(`/api/rating/${event.id}`).then((result) => {
      if (live && result.ok) setSummary(result.data);
    });
    return () => {
      live = false;
    };
  }, [event.id, viewer.status]);

  const average = summary ? summary.average : initial.average;
  const count = summary ? summary.count : initial.count;
  const mine = summary?.mine ?? null;
  const number = (value: number) => formatNumber(value, locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

  return (
    <section
      aria-labelledby="ratings-heading"
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
      data-testid="rating-block"
    >
      <h2 id="ratings-heading" className="font-bold text-ink-900 text-lg">
        {t("rating.heading")}
      </h2>
      <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2">
        {average !== null && count > 0 ? (
          <>
            <p className="font-extrabold text-4xl text-ink-900 tabular-nums" data-testid="rating-average">
              {number(average)}
              <span className="sr-only"> {t("rating.average", { value: number(average) })}</span>
            </p>
            <div>
              <Stars value={average} />
              <p className="mt-0.5 text-ink-700 text-sm" data-testid="rating-count">
                {t("rating.count", { count })}
              </p>
            </div>
          </>
        ) : (
          <p className="text-ink-700">{started ? t("rating.none") : t("rating.notYet")}</p>
        )}
      </div>

      {summary && summary.count > 0 && (
        <div className="mt-4 grid gap-5 sm:grid-cols-2">
          <div>
            <h3 className="font-semibold text-ink-900 text-sm">{t("rating.criteriaHeading")}</h3>
            <ul className="mt-2 space-y-2">
              {RATING_CRITERIA.map((criterion) => {
                const c = summary.criteria[criterion];
                return (
                  <li key={criterion}>
                    <div className="flex justify-between gap-2 text-sm">
                      <span className="text-ink-700">{t(`rating.criteria.${criterion}`)}</span>
                      <span
                        className={
                          c.average === null ? "text-ink-500 italic" : "font-semibold text-ink-900 tabular-nums"
                        }
                      >
                        {c.average === null
                          ? t("rating.criterionNone")
                          : t("rating.criterionValue", { value: number(c.average), count: c.count })}
                      </span>
                    </div>
                    <div className="mt-1 h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
                      <div
                        className="h-full rounded-full bg-brand-600"
                        style={{ width: `${((c.average ?? 0) / 5) * 100}%` }}
                      />
                    </div>
                  </li>
                );
              })}
            </ul>
          </div>
          <div>
            <h3 className="font-semibold text-ink-900 text-sm">{t("rating.distribution")}</h3>
            <ul className="mt-2 space-y-1.5">
              {[5, 4, 3, 2, 1].map((stars) => {
                const n = summary.distribution[stars - 1];
                return (
                  <li key={stars} className="flex items-center gap-2 text-sm">
                    <span className="w-8 shrink-0 text-ink-700 tabular-nums" aria-hidden="true">
                      {stars} <Star className="inline h-3 w-3 fill-amber-400 text-amber-500" />
                    </span>
                    <span className="h-2 flex-1 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
                      <span
                        className="block h-full rounded-full bg-amber-400"
                        style={{ width: `${summary.count ? (n / summary.count) * 100 : 0}%` }}
                      />
                    </span>
                    <span className="w-6 text-right text-ink-700 tabular-nums" aria-hidden="true">
                      {n}
                    </span>
                    <span className="sr-only">{t("rating.starsRow", { stars, count: n })}</span>
                  </li>
                );
              })}
            </ul>
          </div>
        </div>
      )}

      {started && (
        <div className="mt-4 flex flex-wrap items-center gap-3 border-slate-100 border-t pt-4">
          {viewer.status === "anonymous" && (
            <a className={SECONDARY_BUTTON} href={loginHref(locale, eventPath)} data-testid="rate-sign-in">
              {t("rating.signIn")}
            </a>
          )}
          {member && member.emailStatus === "unverified" && (
            <p className="text-ink-700 text-sm">{t("rating.verify")}</p>
          )}
          {member && member.emailStatus !== "unverified" && (
            <>
              <button type="button" className={PRIMARY_BUTTON} onClick={() => setOpen(true)} data-testid="rate-open">
                <Star className="h-4 w-4" aria-hidden="true" />
                {mine ? t("rating.edit") : t("rating.rate")}
              </button>
              {mine && (
                <p className="flex items-center gap-2 text-ink-700 text-sm" data-testid="my-rating">
                  <Stars value={mine.overall} className="h-4 w-4" />
                  {t("rating.yours", { value: mine.overall })}
                </p>
              )}
            </>
          )}
        </div>
      )}

      {open && (
        <Dialog
          title={t("rating.dialogTitle", { name: event.name })}
          onClose={() => setOpen(false)}
          closeLabel={t("rating.close")}
          testId="rating-dialog"
        >
          <RatingForm
            eventId={event.id}
            initial={mine}
            onCancel={() => setOpen(false)}
            onSaved={(next) => {
              setSummary(next);
              setOpen(false);
              void showToast("success", t("rating.saved"));
            }}
          />
        </Dialog>
      )}
    </section>
  );
}
