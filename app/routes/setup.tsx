import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { firstAdminBodySchema } from "../../features/accounts/accounts.contract.ts";
import { NewPasswordFields } from "../../features/accounts/components/AccountFields.tsx";
import { AuthCard } from "../../features/accounts/components/AuthCard.tsx";
import { MIN_PASSWORD_LENGTH } from "../../shared/constants.ts";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { useLocale } from "../../shared/i18n/use-locale.ts";
import { EmailField, FormError, SubmitButton, TextField } from "../../shared/ui/fields.tsx";
import { useApiForm } from "../../shared/ui/form/use-api-form.ts";
import { apiFormAction, redirectWithCookies } from "../form-action.server.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/setup";

/**
 * The first admin of a fresh install, from the link the server prints at start. Once an admin
 * exists the page says so and sends people to sign in.
 */
export async function loader({ context }: Route.LoaderArgs) {
  return { open: !(await context.services.accounts.hasAdmin()) };
}

export function action(args: Route.ActionArgs) {
  const locale = localeFromPath(new URL(args.request.url).pathname);
  return apiFormAction(args, {
    schema: firstAdminBodySchema,
    url: "/api/setup",
    onSuccess: (answer) => redirectWithCookies(pagePath("admin", locale), answer),
  });
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "account:setup.title", description: "account:setup.description", noIndex: true });

export default function SetupPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("account");
  const locale = useLocale();
  const { token = "" } = useParams();
  const { fields, ...form } = useApiForm({
    schema: firstAdminBodySchema,
    url: "/api/setup",
    lastResult: actionData?.result,
    onSuccess: () => window.location.assign(pagePath("admin", locale)),
  });
  if (!loaderData.open) {
    return (
      <AuthCard title={t("setup.doneTitle")} intro={t("setup.doneIntro")}>
        <Link
          to={pagePath("login", locale)}
          className="inline-block rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-600"
        >
          {t("setup.signIn")}
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("setup.title")} intro={t("setup.intro")}>
      <form {...form.props} className="space-y-4">
        <input type="hidden" name="token" value={token} />
        <input type="hidden" name="locale" value={locale} />
        <FormError message={form.formError ?? form.errorOf("token")} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.firstName} label={t("fields.firstName")} autoComplete="given-name" required />
          <TextField field={fields.lastName} label={t("fields.lastName")} autoComplete="family-name" required />
        </div>
        <EmailField field={fields.email} label={t("fields.email")} required />
        <NewPasswordFields
          password={fields.password}
          confirmation={fields.passwordConfirmation}
          label={t("fields.password")}
          hint={t("register.passwordHint", { count: MIN_PASSWORD_LENGTH })}
          required
        />
        <SubmitButton pending={form.pending} className="w-full">
          {t("setup.submit")}
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
