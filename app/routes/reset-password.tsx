import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { resetBodySchema } from "../../features/accounts/accounts.contract.ts";
import { AuthCard } from "../../features/accounts/components/AuthCard.tsx";
import { apiErrorMessage } from "../../shared/api-error.ts";
import { MIN_PASSWORD_LENGTH } from "../../shared/constants.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { FormError, formValues, PRIMARY_BUTTON, TextField } from "../../shared/ui/fields.tsx";
import { useApiForm } from "../../shared/ui/use-api-form.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/reset-password";

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "account:reset.title", description: "account:reset.description", noIndex: true });

export default function ResetPasswordPage() {
  const { t, i18n } = useTranslation("account");
  const locale = i18n.language === "en" ? "en" : "fr";
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const form = useApiForm({
    url: "/api/reset-password",
    schema: resetBodySchema,
    onSuccess: () => window.location.assign(`${pagePath("account", locale)}?reset=1`),
  });
  const tokenError = form.errors.token ?? (token.length < 10 ? apiErrorMessage("INVALID_TOKEN", locale) : null);
  return (
    <AuthCard title={t("reset.title")} intro={t("reset.intro", { count: MIN_PASSWORD_LENGTH })}>
      {tokenError ? (
        <div className="space-y-4">
          <FormError message={tokenError} />
          <Link to={pagePath("forgotPassword", locale)} className="font-semibold text-brand-700 underline">
            {t("reset.askAgain")}
          </Link>
        </div>
      ) : (
        <form
          method="post"
          noValidate
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            form.submit({ ...formValues(event.currentTarget), token });
          }}
        >
          <FormError message={form.formError} />
          <TextField
            name="password"
            type="password"
            label={t("fields.newPassword")}
            autoComplete="new-password"
            required
            error={form.errors.password}
          />
          <TextField
            name="passwordConfirmation"
            type="password"
            label={t("fields.passwordConfirmation")}
            autoComplete="new-password"
            required
            error={form.errors.passwordConfirmation}
          />
          <button type="submit" className={`${PRIMARY_BUTTON} w-full`} disabled={form.pending}>
            {t("reset.submit")}
          </button>
        </form>
      )}
    </AuthCard>
  );
}
