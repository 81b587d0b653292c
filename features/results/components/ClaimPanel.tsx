import { UserRoundSearch } from "lucide-react";
import { useTranslation } from "react-i18next";
import { formatRaceTime } from "../../../shared/format.ts";
import type { CourseResults, ResultRow } from "../results.contract.ts";
import { timesOf } from "../results.contract.ts";

const LINK_BUTTON = "font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800";
export const CLAIM_BUTTON =
  "rounded-md border border-brand-700 px-2 py-1 font-semibold text-brand-700 text-xs hover:bg-brand-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-700";

/**
 * Above a course's table, for a signed-in member: their claim waiting for the organiser (with a
 * way to withdraw it), or the lines of the course that bear their name ("Est-ce vous ?"), or, when
 * none does, an invitation to search for their name. Lines that do not bear the member's name get
 * no "C'est moi" until the member searches for theirs.
 */
export function ClaimPanel({
  data,
  onClaim,
  onWithdraw,
  onSearch,
}: {
  data: CourseResults;
  onClaim: (row: ResultRow) => void;
  onWithdraw: (resultId: number) => void;
  /** Takes the member to the search field. */
  onSearch: () => void;
}) {
  const { t } = useTranslation("results");
  if (data.mine) return null;
  const box = "rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm";
  if (data.pending) {
    return (
      <div className={box} data-testid="claim-panel">
        <p className="text-ink-900">{t("claim.pendingHere")}</p>
        <button type="button" className={`${LINK_BUTTON} mt-1 text-sm`} onClick={() => onWithdraw(data.pending!)}>
          {t("claim.withdraw")}
        </button>
      </div>
    );
  }
  const suggestions = data.suggestions ?? [];
  return (
    <div className={box} data-testid="claim-panel">
      {suggestions.length > 0 ? (
        <>
          <p className="font-semibold text-ink-900">{t("claim.suggestionsTitle")}</p>
          <ul className="mt-1 divide-y divide-slate-200">
            {suggestions.map((row) => {
              const time = timesOf(row, data.timeBasis).shown;
              return (
                <li key={row.id} className="flex flex-wrap items-center justify-between gap-2 py-1.5">
                  <span className="min-w-0">
                    <span className="font-semibold text-ink-900">{row.name}</span>
                    <span className="block text-ink-700 text-xs tabular-nums">
                      {[
                        row.rank !== null ? t("claim.rankShort", { rank: row.rank }) : t(`status.${row.status}`),
                        row.bib ? `#${row.bib}` : null,
                        time !== null ? formatRaceTime(time / 1000) : null,
                      ]
                        .filter(Boolean)
                        .join(" · ")}
                    </span>
                  </span>
                  <button
                    type="button"
                    className={CLAIM_BUTTON}
                    aria-label={t("claim.label", { name: row.name })}
                    onClick={() => onClaim(row)}
                  >
                    {t("claim.button")}
                  </button>
                </li>
              );
            })}
          </ul>
          <button type="button" className={`${LINK_BUTTON} mt-1 text-sm`} onClick={onSearch}>
            {t("claim.notYou")}
          </button>
        </>
      ) : (
        <p className="flex flex-wrap items-center gap-x-2 text-ink-700">
          <UserRoundSearch className="size-4 shrink-0 text-ink-500" aria-hidden="true" />
          <span>{t("claim.findYourself")}</span>
          <button type="button" className={LINK_BUTTON} onClick={onSearch}>
            {t("claim.searchMine")}
          </button>
        </p>
      )}
    </div>
  );
}
