import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { resetBodySchema } from "../../features/accounts/accounts.contract.ts";
import { NewPasswordFields } from "../../features/accounts/components/AccountFields.tsx";
import { AuthCard } from "../../features/accounts/components/AuthCard.tsx";
import { apiErrorMessage } from "../../shared/api-error.ts";
import { MIN_PASSWORD_LENGTH } from "../../shared/constants.ts";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { FormError, SubmitButton } from "../../shared/ui/fields.tsx";
import { useApiForm } from "../../shared/ui/form/use-api-form.ts";
import { apiFormAction, redirectWithCookies } from "../form-action.server.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/reset-password";

/** A new password without JavaScript: the same API call, signed in, then on to the profile. */
export function action(args: Route.ActionArgs) {
  const locale = localeFromPath(new URL(args.request.url).pathname);
  return apiFormAction(args, {
    schema: resetBodySchema,
    url: "/api/reset-password",
    onSuccess: (answer) => redirectWithCookies(`${pagePath("account", locale)}?reset=1`, answer),
  });
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "account:reset.title", description: "account:reset.description", noIndex: true });

export default function ResetPasswordPage({ actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("account");
  const locale = i18n.language === "en" ? "en" : "fr";
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const { fields, ...form } = useApiForm({
    schema: resetBodySchema,
    url: "/api/reset-password",
    lastResult: actionData?.result,
    onSuccess: () => window.location.assign(`${pagePath("account", locale)}?reset=1`),
  });
  const tokenError = form.errorOf("token") ?? (token.length < 10 ? apiErrorMessage("INVALID_TOKEN", locale) : null);
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
        <form {...form.props} className="space-y-4">
          <input type="hidden" name="token" value={token} />
          <FormError message={form.formError} />
          <NewPasswordFields
            password={fields.password}
            confirmation={fields.passwordConfirmation}
            label={t("fields.newPassword")}
            required
          />
          <SubmitButton pending={form.pending} className="w-full">
            {t("reset.submit")}
          </SubmitButton>
        </form>
      )}
    </AuthCard>
  );
}
