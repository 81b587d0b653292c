import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { callApi } from "../../../shared/api-client.ts";
import { Dialog } from "../../../shared/ui/Dialog.tsx";
import {
  DANGER_BUTTON,
  INPUT_CLASS,
  LABEL_CLASS,
  PRIMARY_BUTTON,
  SECONDARY_BUTTON,
} from "../../../shared/ui/fields.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import { REPORT_REASON_MAX } from "../comments.contract.ts";

type Target = { id: number };

/**
 * Deleting (confirmed in an alert dialog) and reporting (with an optional reason) a comment or a
 * wall message; outcomes are toasts. `onDeleted` lets the list drop the comment.
 */
export function useCommentModeration(onDeleted: (id: number) => void): {
  askDelete: (comment: Target) => void;
  askReport: (comment: Target) => void;
  dialogs: ReactNode;
} {
  const { t } = useTranslation("community");
  const [deleting, setDeleting] = useState<Target | null>(null);
  const [reporting, setReporting] = useState<Target | null>(null);
  const [reason, setReason] = useState("");
  const [pending, setPending] = useState(false);

  async function confirmDelete() {
    if (!deleting) return;
    setPending(true);
    const result = await callApi<{ ok: true }>(`/api/comment/${deleting.id}`, { method: "DELETE" });
    setPending(false);
    const id = deleting.id;
    setDeleting(null);
    if (result.ok) {
      onDeleted(id);
      void showToast("success", t("comments.deleted"));
    } else void showToast("error", result.message ?? t("comments.loadError"));
  }

  async function sendReport() {
    if (!reporting) return;
    setPending(true);
    const result = await callApi<{ ok: true }>(`/api/comment/report/${reporting.id}`, {
      method: "POST",
      body: JSON.stringify({ reason: reason.trim() || undefined }),
    });
    setPending(false);
    setReporting(null);
    setReason("");
    if (result.ok) void showToast("success", t("comments.reported"));
    else void showToast("error", result.message ?? t("comments.loadError"));
  }

  const dialogs = (
    <>
      {deleting && (
        <Dialog
          role="alertdialog"
          title={t("comments.deleteTitle")}
          onClose={() => setDeleting(null)}
          testId="delete-comment-dialog"
          actions={
            <>
              <button type="button" className={SECONDARY_BUTTON} onClick={() => setDeleting(null)}>
                {t("comments.cancel")}
              </button>
              <button type="button" className={DANGER_BUTTON} onClick={confirmDelete} disabled={pending} data-autofocus>
                {t("comments.deleteConfirm")}
              </button>
            </>
          }
        >
          <p>{t("comments.deleteText")}</p>
        </Dialog>
      )}
      {reporting && (
        <Dialog
          title={t("comments.reportTitle")}
          onClose={() => setReporting(null)}
          closeLabel={t("rating.close")}
          testId="report-comment-dialog"
          actions={
            <>
              <button type="button" className={SECONDARY_BUTTON} onClick={() => setReporting(null)}>
                {t("comments.cancel")}
              </button>
              <button type="button" className={PRIMARY_BUTTON} onClick={sendReport} disabled={pending}>
                {t("comments.reportSend")}
              </button>
            </>
          }
        >
          <p>{t("comments.reportText")}</p>
          <label className={`${LABEL_CLASS} mt-3`} htmlFor="report-reason">
            {t("comments.reportReason")}
          </label>
          <textarea
            id="report-reason"
            className={INPUT_CLASS}
            rows={3}
            maxLength={REPORT_REASON_MAX}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            data-autofocus
          />
        </Dialog>
      )}
    </>
  );
  return { askDelete: setDeleting, askReport: setReporting, dialogs };
}
