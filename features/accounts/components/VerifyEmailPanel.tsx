import { MailCheck } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { apiFetch } from "../../../shared/api-client.ts";
import { apiErrorBodySchema } from "../../../shared/api-error.ts";
import { VERIFICATION_CODE_LENGTH } from "../../../shared/constants.ts";
import { FormError, PRIMARY_BUTTON, SECONDARY_BUTTON, TextField } from "../../../shared/ui/fields.tsx";
import { useApiForm } from "../../../shared/ui/use-api-form.ts";
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
  const [resendError, setResendError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const form = useApiForm<{ user: Me }>({
    url: "/api/user/verify-account",
    schema: verifyCodeBodySchema,
    onSuccess: ({ user }) => onVerified(user),
  });

  async function resend() {
    setSending(true);
    setNotice(null);
    setResendError(null);
    try {
      const response = await apiFetch("/api/user/send-verify", { method: "POST", body: "{}" });
      const body = await response.json().catch(() => null);
      if (response.ok) setNotice(t("verify.resent", { email }));
      else setResendError(apiErrorBodySchema.safeParse(body).data?.error.message ?? t("verify.resendFailed"));
    } finally {
      setSending(false);
    }
  }

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
      <form
        method="post"
        noValidate
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          const code = String(new FormData(event.currentTarget).get("code") ?? "");
          form.submit({ code });
        }}
      >
        <TextField
          name="code"
          label={t("verify.codeLabel")}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={VERIFICATION_CODE_LENGTH}
          className="w-40"
          style={{ letterSpacing: "0.4em", fontVariantNumeric: "tabular-nums" }}
          error={form.errors.code}
        />
        <button type="submit" className={PRIMARY_BUTTON} disabled={form.pending}>
          {t("verify.submit")}
        </button>
      </form>
      <FormError message={form.formError ?? resendError} />
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span className="text-ink-700">{t("verify.noCode")}</span>
        <button type="button" className={`${SECONDARY_BUTTON} px-3 py-1.5 text-sm`} onClick={resend} disabled={sending}>
          {t("verify.resend")}
        </button>
      </div>
      {notice && (
        <p role="status" className="rounded-lg bg-emerald-50 p-3 text-emerald-900 text-sm">
          {notice}
        </p>
      )}
    </section>
  );
}
