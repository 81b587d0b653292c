import { CircleX, Clock } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { Locale } from "../../../shared/constants.ts";
import { formatCompactDate } from "../../../shared/dates.ts";
import { formatRaceTime } from "../../../shared/format.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { CARD } from "../../../shared/ui/Disclosure.tsx";
import type { MemberClaim } from "../claims.contract.ts";

/**
 * The member's "c'est moi" requests that are not results (yet): waiting for the organiser, which
 * they may withdraw, or refused. Each says its state in words beside its icon.
 */
export function MyClaims({
  claims,
  locale,
  onWithdraw,
}: {
  claims: readonly MemberClaim[];
  locale: Locale;
  onWithdraw: (claim: MemberClaim) => void;
}) {
  const { t } = useTranslation("results");
  if (claims.length === 0) return null;
  return (
    <section aria-labelledby="my-claims-heading" className={CARD}>
      <h2 id="my-claims-heading" className="font-bold text-ink-900 text-lg">
        {t("requests.title")}
      </h2>
      <p className="mt-1 text-ink-700 text-sm">{t("requests.lead")}</p>
      <ul className="mt-3 divide-y divide-slate-100" data-testid="my-claims">
        {claims.map((claim) => {
          const refused = claim.status === "refused";
          const Icon = refused ? CircleX : Clock;
          return (
            <li key={claim.id} className="flex flex-wrap items-start justify-between gap-2 py-3">
              <div className="min-w-0">
                <p className="font-semibold text-ink-900">
                  <a
                    href={`${pagePath("event", locale, { slug: claim.event.slug })}#resultats`}
                    className="hover:underline"
                  >
                    {claim.event.name}
                  </a>
                </p>
                <p className="text-ink-700 text-sm">
                  {[claim.course.name, formatCompactDate(claim.event.date, locale)].join(" · ")}
                </p>
                <p className="text-ink-700 text-sm tabular-nums">
                  {[
                    claim.line.name,
                    claim.line.bib ? `#${claim.line.bib}` : null,
                    claim.line.rank !== null ? t("claim.rankShort", { rank: claim.line.rank }) : null,
                    claim.line.timeMs !== null ? formatRaceTime(claim.line.timeMs / 1000) : null,
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </p>
                <p
                  className={`mt-1 inline-flex items-center gap-1 rounded-full px-2 py-0.5 font-semibold text-xs ${refused ? "bg-red-50 text-red-800" : "bg-amber-50 text-amber-900"}`}
                >
                  <Icon className="size-3.5" aria-hidden="true" />
                  {refused
                    ? t("requests.refused", { date: formatCompactDate(claim.decidedAt?.slice(0, 10), locale) })
                    : t("requests.pending")}
                </p>
              </div>
              {!refused && claim.line.id !== null && (
                <button
                  type="button"
                  className="rounded-md px-2 py-1 font-semibold text-red-700 text-sm underline"
                  onClick={() => onWithdraw(claim)}
                >
                  {t("claim.withdraw")}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
