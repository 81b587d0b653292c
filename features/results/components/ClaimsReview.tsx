import { TriangleAlert } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { callApi } from "../../../shared/api-client.ts";
import type { Locale } from "../../../shared/constants.ts";
import { formatCompactDate } from "../../../shared/dates.ts";
import { formatDistance, formatRaceTime } from "../../../shared/format.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import type { ClaimDecision, ClaimForReview } from "../claims.contract.ts";

/**
 * Claims on results waiting for a decision, for an edition's organisers (beside the results
 * import) and for admins (every edition): who asks, the name on their profile beside the line's,
 * the line itself; approve (the line becomes theirs) or refuse. `onDecided` reloads the list.
 */
export function ClaimsReview({
  claims,
  locale,
  withEvent = false,
  onDecided,
}: {
  claims: readonly ClaimForReview[];
  locale: Locale;
  /** Name each claim's edition (the admin queue spans them all). */
  withEvent?: boolean;
  onDecided: () => void | Promise<void>;
}) {
  const { t } = useTranslation("results");
  const [busy, setBusy] = useState<number | null>(null);

  async function decide(claim: ClaimForReview, decision: ClaimDecision) {
    setBusy(claim.id);
    const answer = await callApi<{ status: string }>(`/api/results/event/${claim.event.id}/claims/${claim.id}`, {
      method: "POST",
      body: JSON.stringify({ decision }),
    });
    setBusy(null);
    if (answer.ok) {
      void showToast(
        "success",
        t(decision === "approve" ? "review.approved" : "review.refused", { name: claim.member.name }),
      );
      await onDecided();
    } else void showToast("error", answer.message ?? t("block.failed"));
  }

  if (claims.length === 0) return <p className="text-ink-700">{t("review.empty")}</p>;
  return (
    <ul className="space-y-4" data-testid="claims-review">
      {claims.map((claim) => {
        const { line, course, event, member } = claim;
        return (
          <li key={claim.id} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
            {withEvent && (
              <p className="font-semibold text-ink-900">
                <a
                  className="text-brand-700 underline underline-offset-2"
                  href={`${pagePath("event", locale, { slug: event.slug })}#resultats`}
                >
                  {event.name}
                </a>
              </p>
            )}
            <p className="text-ink-700 text-sm">
              {[
                course.name,
                course.distance ? formatDistance(course.distance, locale, { maximumFractionDigits: 3 }) : null,
                formatCompactDate(event.date, locale),
                t("review.askedOn", { date: formatCompactDate(claim.createdAt.slice(0, 10), locale) }),
              ]
                .filter(Boolean)
                .join(" · ")}
            </p>
            <dl className="mt-3 grid gap-2 sm:grid-cols-2">
              <div className="rounded-lg bg-slate-50 p-3">
                <dt className="text-ink-500 text-xs">{t("review.lineName")}</dt>
                <dd className="font-semibold text-ink-900">{line.name}</dd>
                <dd className="text-ink-700 text-sm tabular-nums">
                  {[
                    line.rank !== null ? t("review.rank", { rank: line.rank }) : null,
                    line.bib ? t("review.bib", { bib: line.bib }) : null,
                    line.timeMs !== null
                      ? `${t(`times.${line.timeBasis}`)} ${formatRaceTime(line.timeMs / 1000)}`
                      : null,
                    line.category,
                    line.club,
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </dd>
              </div>
              <div className="rounded-lg bg-slate-50 p-3">
                <dt className="text-ink-500 text-xs">{t("review.memberName")}</dt>
                <dd className="font-semibold text-ink-900">
                  {member.slug ? (
                    <a
                      className="text-brand-700 underline underline-offset-2"
                      href={pagePath("member", locale, { slug: member.slug })}
                    >
                      {member.name}
                    </a>
                  ) : (
                    member.name
                  )}
                </dd>
              </div>
            </dl>
            {claim.lineTaken && (
              <p className="mt-3 flex items-start gap-2 rounded-lg bg-amber-50 p-2 text-amber-900 text-sm">
                <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                {t("review.taken")}
              </p>
            )}
            <div className="mt-3 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <button
                type="button"
                className={SECONDARY_BUTTON}
                disabled={busy === claim.id}
                aria-label={t("review.refuseLabel", { name: member.name, line: line.name })}
                onClick={() => decide(claim, "refuse")}
              >
                {t("review.refuse")}
              </button>
              <button
                type="button"
                className={PRIMARY_BUTTON}
                disabled={busy === claim.id || claim.lineTaken}
                aria-label={t("review.approveLabel", { name: member.name, line: line.name })}
                onClick={() => decide(claim, "approve")}
              >
                {t("review.approve")}
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
