import { MailCheck } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { recoverBodySchema } from "../../features/accounts/accounts.contract.ts";
import { AuthCard } from "../../features/accounts/components/AuthCard.tsx";
import { pagePath } from "../../shared/i18n/pages.ts";
import { EmailField, FormError, SubmitButton } from "../../shared/ui/fields.tsx";
import { useApiForm } from "../../shared/ui/form/use-api-form.ts";
import { apiFormAction } from "../form-action.server.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/forgot-password";

/** Asking for the link without JavaScript: the same API call, then the page says where it went. */
export function action(args: Route.ActionArgs) {
  return apiFormAction(args, {
    schema: recoverBodySchema,
    url: "/api/recover-password",
    onSuccess: (_answer, value) => ({ sentTo: value.email }),
  });
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "account:forgot.title", description: "account:forgot.description", noIndex: true });

export default function ForgotPasswordPage({ actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("account");
  const locale = i18n.language === "en" ? "en" : "fr";
  const [sent, setSent] = useState<string | null>(null);
  const sentTo = sent ?? actionData?.sentTo ?? null;
  const { fields, ...form } = useApiForm({
    schema: recoverBodySchema,
    url: "/api/recover-password",
    lastResult: actionData?.result,
    onSuccess: (_result, value) => setSent(value.email),
  });
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
        <form {...form.props} className="space-y-4">
          <input type="hidden" name="locale" value={locale} />
          <FormError message={form.formError} />
          <EmailField field={fields.email} label={t("fields.email")} required />
          <SubmitButton pending={form.pending} className="w-full">
            {t("forgot.submit")}
          </SubmitButton>
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
