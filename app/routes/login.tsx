import { useTranslation } from "react-i18next";
import { Link, redirect, useSearchParams } from "react-router";
import { loginBodySchema } from "../../features/accounts/accounts.contract.ts";
import { CurrentPasswordField } from "../../features/accounts/components/AccountFields.tsx";
import { AuthCard } from "../../features/accounts/components/AuthCard.tsx";
import { SocialButtons } from "../../features/accounts/components/SocialButtons.tsx";
import { safeNext } from "../../features/accounts/components/safe-next.ts";
import { apiErrorMessage, isErrorCode } from "../../shared/api-error.ts";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { CheckboxField, EmailField, FormError, SubmitButton } from "../../shared/ui/fields.tsx";
import { useApiForm } from "../../shared/ui/form/use-api-form.ts";
import { apiFormAction, redirectWithCookies } from "../form-action.server.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/login";

export function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const locale = localeFromPath(url.pathname);
  // Already signed in: straight on (a 403 sends members here too; they may need another account).
  if (context.user && !url.searchParams.has("switch") && !url.searchParams.has("error")) {
    throw redirect(safeNext(url.searchParams.get("next")) ?? pagePath("home", locale));
  }
  return { providers: context.oauthProviders };
}

/** Signing in without JavaScript: the same API call, then on to the page asked for. */
export function action(args: Route.ActionArgs) {
  const url = new URL(args.request.url);
  return apiFormAction(args, {
    schema: loginBodySchema,
    url: "/api/login",
    onSuccess: (answer) =>
      redirectWithCookies(
        safeNext(url.searchParams.get("next")) ?? pagePath("home", localeFromPath(url.pathname)),
        answer,
      ),
  });
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "account:login.title", description: "account:login.description", noIndex: true });

export default function LoginPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("account");
  const locale = i18n.language === "en" ? "en" : "fr";
  const [params] = useSearchParams();
  const next = safeNext(params.get("next"));
  const code = params.get("error");
  const { fields, ...form } = useApiForm({
    schema: loginBodySchema,
    url: "/api/login",
    lastResult: actionData?.result,
    onSuccess: () => window.location.assign(next ?? pagePath("home", locale)),
  });
  const registerHref = `${pagePath("register", locale)}${next ? `?next=${encodeURIComponent(next)}` : ""}`;
  return (
    <AuthCard
      title={t("login.title")}
      intro={
        <>
          {t("login.noAccount")}{" "}
          <Link to={registerHref} className="font-semibold text-brand-700 underline">
            {t("login.createAccount")}
          </Link>
        </>
      }
    >
      <div className="space-y-5">
        <FormError message={isErrorCode(code) ? apiErrorMessage(code, locale) : null} />
        <SocialButtons providers={loaderData.providers} locale={locale} next={next} />
        <form {...form.props} className="space-y-4">
          <FormError message={form.formError} />
          <EmailField field={fields.email} label={t("fields.email")} required />
          <CurrentPasswordField field={fields.password} label={t("fields.password")} required />
          <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <CheckboxField
              field={fields.remember}
              label={t("login.remember")}
              labelClassName="flex items-center gap-2"
              inputClassName="h-4 w-4 accent-brand-700"
            />
            <Link to={pagePath("forgotPassword", locale)} className="font-medium text-brand-700 underline">
              {t("login.forgot")}
            </Link>
          </div>
          <SubmitButton pending={form.pending} pendingLabel={t("login.submitting")} className="w-full">
            {t("login.submit")}
          </SubmitButton>
        </form>
      </div>
    </AuthCard>
  );
}
