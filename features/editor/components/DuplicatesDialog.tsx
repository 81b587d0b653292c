import { useTranslation } from "react-i18next";
import { formatPageDate } from "../../../shared/dates.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { Dialog } from "../../../shared/ui/Dialog.tsx";
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";

export type Duplicate = { id: number; slug: string; name: string; startDate: string; city: string | null };

/** Likely duplicates of a new listing, before its first save: cancel, or list it all the same. */
export function DuplicatesDialog({
  duplicates,
  locale,
  setDuplicates,
  save,
}: {
  duplicates: Duplicate[];
  locale: "fr" | "en";
  setDuplicates: (duplicates: Duplicate[] | null) => void;
  save: (confirmedDistinct: boolean) => Promise<void>;
}) {
  const { t } = useTranslation("editor");
  return (
    <Dialog
      title={t("duplicates.title")}
      onClose={() => setDuplicates(null)}
      actions={
        <>
          <button type="button" className={SECONDARY_BUTTON} onClick={() => setDuplicates(null)}>
            {t("form.cancel")}
          </button>
          <button
            type="button"
            className={PRIMARY_BUTTON}
            onClick={() => {
              setDuplicates(null);
              void save(true);
            }}
          >
            {t("duplicates.continue")}
          </button>
        </>
      }
    >
      <p>{t("duplicates.lead")}</p>
      <ul className="mt-3 space-y-2">
        {duplicates.map((d) => (
          <li key={d.id} className="rounded-lg border border-slate-200 p-3">
            <a
              href={pagePath("event", locale, { slug: d.slug })}
              target="_blank"
              rel="noopener"
              className="font-semibold text-brand-800 underline"
            >
              {d.name}
              <span className="sr-only"> {t("form.newTab")}</span>
            </a>
            <p className="text-ink-700">{[formatPageDate(d.startDate, locale), d.city].filter(Boolean).join(" · ")}</p>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
