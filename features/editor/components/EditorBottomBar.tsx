import { ArrowLeft, ArrowRight, LoaderCircle, Save } from "lucide-react";
import { useTranslation } from "react-i18next";
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import type { EditableEvent } from "../editor.contract.ts";
import { STEPS, type Step } from "./form-model.ts";

/** The bar fixed at the bottom of the form: previous step, unsaved mark, save (or propose), next step. */
export function EditorBottomBar({
  step,
  meta,
  dirty,
  showSave,
  saving,
  goTo,
  save,
}: {
  step: Step;
  meta: Pick<EditableEvent, "access"> | null;
  dirty: boolean;
  showSave: boolean;
  saving: boolean;
  goTo: (target: Step) => void;
  save: () => void;
}) {
  const { t } = useTranslation("editor");
  const index = STEPS.indexOf(step);
  // Fixed at the bottom: app.css keeps the fields that get the focus above it (data-bottom-bar).
  return (
    <div
      className="fixed inset-x-0 bottom-0 z-20 border-slate-200 border-t bg-white/95 backdrop-blur"
      data-bottom-bar=""
    >
      <div className="mx-auto flex w-full max-w-5xl items-center justify-between gap-2 px-4 py-2 sm:py-3">
        <div>
          {index > 0 ? (
            <button
              type="button"
              className={`${SECONDARY_BUTTON} max-sm:px-3`}
              onClick={() => goTo(STEPS[index - 1] as Step)}
            >
              <ArrowLeft className="h-4 w-4" aria-hidden="true" />
              {/* On phones the arrow alone, to keep the bar on one line; the word stays for screen readers. */}
              <span className="sr-only sm:not-sr-only">{t("form.previous")}</span>
            </button>
          ) : null}
        </div>
        <div className="flex items-center justify-end gap-2">
          {dirty ? (
            <span className="hidden text-ink-500 text-sm sm:inline" data-testid="unsaved">
              {t("form.unsaved")}
            </span>
          ) : null}
          {showSave ? (
            <button
              type="button"
              className={`${step === "visuals" || !STEPS[index + 1] ? PRIMARY_BUTTON : SECONDARY_BUTTON} max-sm:px-3`}
              onClick={() => void save()}
              disabled={saving}
              aria-busy={saving || undefined}
              data-testid="save-event"
            >
              {saving ? (
                <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden="true" />
              ) : (
                <Save className="h-4 w-4" aria-hidden="true" />
              )}
              {meta?.access === "member" ? (
                t("form.propose")
              ) : meta ? (
                t("form.save")
              ) : (
                <>
                  <span className="sm:hidden">{t("form.save")}</span>
                  <span className="hidden sm:inline">{t("form.saveNew")}</span>
                </>
              )}
            </button>
          ) : null}
          {STEPS[index + 1] ? (
            <button
              type="button"
              className={`${PRIMARY_BUTTON} max-sm:px-3`}
              onClick={() => goTo(STEPS[index + 1] as Step)}
              data-testid="next-step"
            >
              {t("form.next")}
              <ArrowRight className="h-4 w-4" aria-hidden="true" />
            </button>
          ) : null}
        </div>
      </div>
    </div>
  );
}
