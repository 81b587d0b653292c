import { useTranslation } from "react-i18next";
import { formatRaceTime } from "../../../shared/format.ts";
import { Dialog } from "../../../shared/ui/Dialog.tsx";
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { type ResultRow, type TimeBasis, timesOf } from "../results.contract.ts";

/**
 * "C'est moi" asks before it claims: the line (name, bib, rank, time, course) and what will happen.
 * A line bearing the member's name becomes theirs at once; any other is sent to the organiser, who
 * sees the member's profile name, and counts only once approved.
 */
export function ClaimDialog({
  row,
  course,
  basis,
  memberName,
  busy,
  onConfirm,
  onClose,
}: {
  row: ResultRow;
  /** The table's caption: course, distance, day. */
  course: string;
  basis: TimeBasis;
  memberName: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation("results");
  const match = row.couldBeYou === true;
  const time = timesOf(row, basis).shown;
  const facts: [string, string][] = [
    [t("claim.dialog.course"), course],
    [t("columns.name"), row.name],
    ...(row.bib ? ([[t("columns.bib"), row.bib]] as [string, string][]) : []),
    ...(row.rank !== null ? ([[t("columns.rank"), String(row.rank)]] as [string, string][]) : []),
    ...(time !== null ? ([[t(`times.${basis}`), formatRaceTime(time / 1000)]] as [string, string][]) : []),
  ];
  return (
    <Dialog
      title={t("claim.dialog.title")}
      onClose={onClose}
      closeLabel={t("claim.dialog.cancel")}
      testId="claim-dialog"
      actions={
        <>
          <button type="button" className={SECONDARY_BUTTON} onClick={onClose}>
            {t("claim.dialog.cancel")}
          </button>
          <button type="button" className={PRIMARY_BUTTON} onClick={onConfirm} disabled={busy} data-autofocus>
            {match ? t("claim.dialog.confirm") : t("claim.dialog.send")}
          </button>
        </>
      }
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-lg bg-slate-50 p-3">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-ink-500">{label}</dt>
            <dd className="font-semibold text-ink-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3">
        {match
          ? t("claim.dialog.match", { member: memberName })
          : t("claim.dialog.mismatch", { line: row.name, member: memberName })}
      </p>
    </Dialog>
  );
}
