import { useTranslation } from "react-i18next";
import { Link, redirect, useSearchParams } from "react-router";
import { registerBodySchema } from "../../features/accounts/accounts.contract.ts";
import { AuthCard } from "../../features/accounts/components/AuthCard.tsx";
import { SocialButtons } from "../../features/accounts/components/SocialButtons.tsx";
import { safeNext } from "../../features/accounts/components/safe-next.ts";
import { MIN_PASSWORD_LENGTH } from "../../shared/constants.ts";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { FieldError, FormError, formValues, PRIMARY_BUTTON, TextField } from "../../shared/ui/fields.tsx";
import { useApiForm } from "../../shared/ui/use-api-form.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/register";

export function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  if (context.user) throw redirect(pagePath("account", localeFromPath(url.pathname)));
  return { providers: context.oauthProviders };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "account:register.title", description: "account:register.description" });

export default function RegisterPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("account");
  const locale = i18n.language === "en" ? "en" : "fr";
  const [params] = useSearchParams();
  const next = safeNext(params.get("next"));
  const form = useApiForm({
    url: "/api/register",
    schema: registerBodySchema,
    onSuccess: () => {
      const verify = pagePath("verifyEmail", locale);
      window.location.assign(next ? `${verify}?next=${encodeURIComponent(next)}` : verify);
    },
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
        <form
          method="post"
          noValidate
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            const v = formValues(event.currentTarget);
            form.submit({ ...v, locale });
          }}
        >
          <FormError message={form.formError} />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              name="firstName"
              label={t("fields.firstName")}
              autoComplete="given-name"
              required
              error={form.errors.firstName}
            />
            <TextField
              name="lastName"
              label={t("fields.lastName")}
              autoComplete="family-name"
              error={form.errors.lastName}
            />
          </div>
          <TextField
            name="pseudo"
            label={t("fields.pseudo")}
            autoComplete="nickname"
            hint={t("register.pseudoHint")}
            error={form.errors.pseudo}
          />
          <TextField
            name="email"
            type="email"
            label={t("fields.email")}
            autoComplete="email"
            inputMode="email"
            required
            error={form.errors.email}
          />
          <TextField
            name="password"
            type="password"
            label={t("fields.password")}
            autoComplete="new-password"
            required
            hint={t("register.passwordHint", { count: MIN_PASSWORD_LENGTH })}
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
          <div>
            <label className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                name="terms"
                className="mt-0.5 h-4 w-4 accent-brand-700"
                aria-invalid={form.errors.terms ? true : undefined}
                aria-describedby={form.errors.terms ? "terms-error" : undefined}
              />
              <span>
                {t("register.acceptTerms")}{" "}
                <Link
                  to={pagePath("page", locale, { slug: "terms" })}
                  className="text-brand-700 underline"
                  target="_blank"
                >
                  {t("register.termsLink")}
                </Link>
              </span>
            </label>
            <FieldError id="terms-error" message={form.errors.terms} />
          </div>
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="newsletter" className="mt-0.5 h-4 w-4 accent-brand-700" />
            <span>{t("register.newsletter")}</span>
          </label>
          <button type="submit" className={`${PRIMARY_BUTTON} w-full`} disabled={form.pending}>
            {form.pending ? t("register.submitting") : t("register.submit")}
          </button>
        </form>
      </div>
    </AuthCard>
  );
}
