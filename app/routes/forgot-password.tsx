import { MailCheck } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { recoverBodySchema } from "../../features/accounts/accounts.contract.ts";
import { AuthCard } from "../../features/accounts/components/AuthCard.tsx";
import { pagePath } from "../../shared/i18n/pages.ts";
import { FormError, PRIMARY_BUTTON, TextField } from "../../shared/ui/fields.tsx";
import { useApiForm } from "../../shared/ui/use-api-form.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "account:forgot.title", description: "account:forgot.description", noIndex: true });

export default function ForgotPasswordPage() {
  const { t, i18n } = useTranslation("account");
  const locale = i18n.language === "en" ? "en" : "fr";
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useApiForm({ url: "/api/recover-password", schema: recoverBodySchema });
  return (
    <AuthCard title={t("forgot.title")} intro={sentTo ? undefined : t("forgot.intro")}>
      {sentTo ? (
        <div role="status" className="space-y-4">
          <p className="flex items-start gap-2 text-ink-900">
            <MailCheck className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
            {t("forgot.sent", { email: sentTo })}
          </p>
          <Link to={pagePath("login", locale)} className="font-semibold text-brand-700 underline">
            {t("forgot.backToLogin")}
          </Link>
        </div>
      ) : (
        <form
          method="post"
          noValidate
          className="space-y-4"
          onSubmit={async (event) => {
            event.preventDefault();
            const email = String(new FormData(event.currentTarget).get("email") ?? "");
            if (await form.submit({ email, locale })) setSentTo(email);
          }}
        >
          <FormError message={form.formError} />
          <TextField
            name="email"
            type="email"
            label={t("fields.email")}
            autoComplete="email"
            required
            error={form.errors.email}
          />
          <button type="submit" className={`${PRIMARY_BUTTON} w-full`} disabled={form.pending}>
            {t("forgot.submit")}
          </button>
          <p className="text-center text-sm">
            <Link to={pagePath("login", locale)} className="font-medium text-brand-700 underline">
              {t("forgot.backToLogin")}
            </Link>
          </p>
        </form>
      )}
    </AuthCard>
  );
}
