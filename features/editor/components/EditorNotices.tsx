import { CircleAlert, Hourglass, Info } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { pagePath } from "../../../shared/i18n/pages.ts";
import type { EditableEvent } from "../editor.contract.ts";

/** What the editor tells above the form: a listing pending validation, a member's proposal, an e-mail to verify. */
export function EditorNotices({
  meta,
  requestSent,
  emailVerified,
  locale,
}: {
  meta: Pick<EditableEvent, "status" | "access"> | null;
  requestSent: boolean;
  emailVerified: boolean;
  locale: "fr" | "en";
}) {
  const { t } = useTranslation("editor");
  return (
    <>
      {meta?.status === "pending" ? (
        <p
          className="flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950 text-sm"
          data-testid="pending-notice"
        >
          <Hourglass className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          {t("editor.pending")}
        </p>
      ) : null}
      {meta?.access === "member" ? (
        <p className="flex items-start gap-2 rounded-lg border border-sky-300 bg-sky-50 p-3 text-sky-950 text-sm">
          <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          {requestSent ? t("save.requestSent") : t("editor.memberNotice")}
        </p>
      ) : null}
      {!emailVerified ? (
        <p className="flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950 text-sm">
          <CircleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>
            {t("editor.verifyFirst")}{" "}
            <Link to={pagePath("verifyEmail", locale)} className="font-semibold underline">
              {t("editor.verifyLink")}
            </Link>
          </span>
        </p>
      ) : null}
    </>
  );
}
