import { MailCheck } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { VERIFICATION_CODE_LENGTH } from "../../../shared/constants.ts";
import { CodeField } from "../../../shared/ui/CodeField.tsx";
import { FormError, SECONDARY_BUTTON, SubmitButton } from "../../../shared/ui/fields.tsx";
import { emptyBody } from "../../../shared/ui/form/submission.ts";
import { useApiForm } from "../../../shared/ui/form/use-api-form.ts";
import { type Me, verifyCodeBodySchema } from "../accounts.contract.ts";

/**
 * Enter the 5-digit code mailed to the address (or the new address), or ask for another one.
 * Used on the verification page and on the spot when an action needs a verified email.
 */
export function VerifyEmailPanel({
  email,
  onVerified,
  compact = false,
}: {
  email: string;
  onVerified: (user: Me) => void;
  compact?: boolean;
}) {
  const { t } = useTranslation("account");
  const [notice, setNotice] = useState<string | null>(null);
  const { fields, ...form } = useApiForm({
    schema: verifyCodeBodySchema,
    url: "/api/user/verify-account",
    onSuccess: ({ user }: { user: Me }) => onVerified(user),
  });
  const resend = useApiForm({
    schema: emptyBody,
    url: "/api/user/send-verify",
    onSuccess: () => setNotice(t("verify.resent", { email })),
  });

  return (
    <section
      className={compact ? "space-y-3" : "space-y-4"}
      aria-labelledby="verify-heading"
      data-testid="verify-email"
    >
      <h2 id="verify-heading" className="flex items-center gap-2 font-semibold text-ink-900 text-lg">
        <MailCheck className="h-5 w-5 text-brand-700" aria-hidden="true" />
        {t("verify.heading")}
      </h2>
      <p className="text-ink-700">{t("verify.sentTo", { email, count: VERIFICATION_CODE_LENGTH })}</p>
      <form {...form.props} className="flex flex-wrap items-end gap-3">
        <CodeField field={fields.code} label={t("verify.codeLabel")} className="w-40" />
        <SubmitButton pending={form.pending}>{t("verify.submit")}</SubmitButton>
      </form>
      <FormError message={form.formError ?? resend.formError} />
      <form {...resend.props} className="flex flex-wrap items-center gap-3 text-sm">
        <span className="text-ink-700">{t("verify.noCode")}</span>
        <button type="submit" className={`${SECONDARY_BUTTON} px-3 py-1.5 text-sm`} disabled={resend.pending}>
          {t("verify.resend")}
        </button>
      </form>
      {notice && (
        <p role="status" className="rounded-lg bg-emerald-50 p-3 text-emerald-900 text-sm">
          {notice}
        </p>
      )}
    </section>
  );
}
