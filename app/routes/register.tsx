import { useTranslation } from "react-i18next";
import { Link, redirect, useSearchParams } from "react-router";
import { registerBodySchema } from "../../features/accounts/accounts.contract.ts";
import { NewPasswordFields } from "../../features/accounts/components/AccountFields.tsx";
import { AuthCard } from "../../features/accounts/components/AuthCard.tsx";
import { SocialButtons } from "../../features/accounts/components/SocialButtons.tsx";
import { safeNext } from "../../features/accounts/components/safe-next.ts";
import { type Locale, MIN_PASSWORD_LENGTH } from "../../shared/constants.ts";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { staticPagePath } from "../../shared/static-pages.ts";
import { CheckboxField, EmailField, FormError, SubmitButton, TextField } from "../../shared/ui/fields.tsx";
import { useApiForm } from "../../shared/ui/form/use-api-form.ts";
import { apiFormAction, redirectWithCookies } from "../form-action.server.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/register";

export function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  if (context.user) throw redirect(pagePath("account", localeFromPath(url.pathname)));
  return { providers: context.oauthProviders };
}

/** After registering, the address is verified with the mailed code (then on to `next`). */
function verifyPath(locale: Locale, next: string | null): string {
  const verify = pagePath("verifyEmail", locale);
  return next ? `${verify}?next=${encodeURIComponent(next)}` : verify;
}

/** Registering without JavaScript: the same API call, signed in, then on to the verification. */
export function action(args: Route.ActionArgs) {
  const url = new URL(args.request.url);
  return apiFormAction(args, {
    schema: registerBodySchema,
    url: "/api/register",
    onSuccess: (answer) =>
      redirectWithCookies(verifyPath(localeFromPath(url.pathname), safeNext(url.searchParams.get("next"))), answer),
  });
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "account:register.title", description: "account:register.description" });

export default function RegisterPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("account");
  const locale = i18n.language === "en" ? "en" : "fr";
  const [params] = useSearchParams();
  const next = safeNext(params.get("next"));
  const { fields, ...form } = useApiForm({
    schema: registerBodySchema,
    url: "/api/register",
    lastResult: actionData?.result,
    onSuccess: () => window.location.assign(verifyPath(locale, next)),
  });
  return (
    <AuthCard
      title={t("register.title")}
      intro={
        <>
          {t("register.haveAccount")}{" "}
          <Link to={pagePath("login", locale)} className="font-semibold text-brand-700 underline">
            {t("register.signIn")}
          </Link>
        </>
      }
    >
      <div className="space-y-5">
        <SocialButtons providers={loaderData.providers} locale={locale} next={next} />
        <form {...form.props} className="space-y-4">
          <input type="hidden" name="locale" value={locale} />
          <FormError message={form.formError} />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField field={fields.firstName} label={t("fields.firstName")} autoComplete="given-name" required />
            <TextField field={fields.lastName} label={t("fields.lastName")} autoComplete="family-name" />
          </div>
          <TextField
            field={fields.pseudo}
            label={t("fields.pseudo")}
            autoComplete="nickname"
            hint={t("register.pseudoHint")}
          />
          <EmailField field={fields.email} label={t("fields.email")} required />
          <NewPasswordFields
            password={fields.password}
            confirmation={fields.passwordConfirmation}
            label={t("fields.password")}
            hint={t("register.passwordHint", { count: MIN_PASSWORD_LENGTH })}
            required
          />
          <CheckboxField
            field={fields.terms}
            label={
              <>
                {t("register.acceptTerms")}{" "}
                <Link to={staticPagePath("terms", locale)} className="text-brand-700 underline" target="_blank">
                  {t("register.termsLink")}
                </Link>
              </>
            }
          />
          <CheckboxField field={fields.newsletter} label={t("register.newsletter")} />
          <SubmitButton pending={form.pending} pendingLabel={t("register.submitting")} className="w-full">
            {t("register.submit")}
          </SubmitButton>
        </form>
      </div>
    </AuthCard>
  );
}
