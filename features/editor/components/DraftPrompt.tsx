import { Info } from "lucide-react";
import { useTranslation } from "react-i18next";
import { formatPageDate } from "../../../shared/dates.ts";
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import type { StoredDraft } from "./drafts.ts";

/** The draft found in the browser, offered back: restore it or discard it. */
export function DraftPrompt({
  storedDraft,
  locale,
  restore,
  discard,
}: {
  storedDraft: StoredDraft;
  locale: "fr" | "en";
  restore: () => void;
  discard: () => void;
}) {
  const { t } = useTranslation("editor");
  return (
    <section
      className="flex flex-wrap items-center gap-3 rounded-lg border border-sky-300 bg-sky-50 p-3 text-sky-950 text-sm"
      aria-label={t("draft.label")}
      data-testid="draft-prompt"
    >
      <Info className="h-5 w-5 shrink-0" aria-hidden="true" />
      <p className="min-w-0 flex-1">
        {t("draft.found", {
          date: formatPageDate(storedDraft.savedAt.slice(0, 10), locale),
          time: storedDraft.savedAt.slice(11, 16),
        })}
      </p>
      <div className="flex gap-2">
        <button type="button" className={PRIMARY_BUTTON} onClick={restore}>
          {t("draft.restore")}
        </button>
        <button type="button" className={SECONDARY_BUTTON} onClick={discard}>
          {t("draft.discard")}
        </button>
      </div>
    </section>
  );
}
