import { useTranslation } from "react-i18next";
import { Link, redirect, useSearchParams } from "react-router";
import { loginBodySchema, type Me } from "../../features/accounts/accounts.contract.ts";
import { AuthCard } from "../../features/accounts/components/AuthCard.tsx";
import { SocialButtons } from "../../features/accounts/components/SocialButtons.tsx";
import { safeNext } from "../../features/accounts/components/safe-next.ts";
import { apiErrorMessage, isErrorCode } from "../../shared/api-error.ts";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { FormError, formValues, PRIMARY_BUTTON, TextField } from "../../shared/ui/fields.tsx";
import { useApiForm } from "../../shared/ui/use-api-form.ts";
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

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "account:login.title", description: "account:login.description", noIndex: true });

export default function LoginPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("account");
  const locale = i18n.language === "en" ? "en" : "fr";
  const [params] = useSearchParams();
  const next = safeNext(params.get("next"));
  const code = params.get("error");
  const form = useApiForm<{ user: Me }>({
    url: "/api/login",
    schema: loginBodySchema,
    onSuccess: () => {
      window.location.assign(next ?? pagePath("home", locale));
    },
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
        <form
          method="post"
          noValidate
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            const values = formValues(event.currentTarget);
            form.submit({ email: values.email, password: values.password, remember: values.remember });
          }}
        >
          <FormError message={form.formError} />
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
            autoComplete="current-password"
            required
            error={form.errors.password}
          />
          <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <label className="flex items-center gap-2">
              <input type="checkbox" name="remember" className="h-4 w-4 accent-brand-700" />
              {t("login.remember")}
            </label>
            <Link to={pagePath("forgotPassword", locale)} className="font-medium text-brand-700 underline">
              {t("login.forgot")}
            </Link>
          </div>
          <button type="submit" className={`${PRIMARY_BUTTON} w-full`} disabled={form.pending}>
            {form.pending ? t("login.submitting") : t("login.submit")}
          </button>
        </form>
      </div>
    </AuthCard>
  );
}
