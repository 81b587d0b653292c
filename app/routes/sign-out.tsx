import { useTranslation } from "react-i18next";
import { data, Form, Link } from "react-router";
import { AuthCard } from "../../features/accounts/components/AuthCard.tsx";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { FormError, PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../shared/ui/fields.tsx";
import { apiErrorsOf } from "../../shared/ui/form/submission.ts";
import { redirectWithCookies } from "../form-action.server.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/sign-out";

/**
 * "Sign out?": where a sign-out link lands when the site did not follow it itself (a link or an
 * image on another site, a browser that does not say where a request comes from). Signing out is
 * this page's form, posted to itself: the same API call as the site's own sign-out.
 */
export function loader({ context }: Route.LoaderArgs) {
  return { signedIn: Boolean(context.user) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const locale = localeFromPath(new URL(request.url).pathname);
  const answer = await context.api({ url: "/api/logout", body: {}, locale });
  if (answer.status >= 400) {
    return data({ formError: apiErrorsOf(answer.body, locale).formErrors?.[0] ?? null }, { status: answer.status });
  }
  return redirectWithCookies(pagePath("home", locale), answer);
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "account:signOut.title", description: "account:signOut.description", noIndex: true });

export default function SignOutPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("account");
  const locale = i18n.language === "en" ? "en" : "fr";
  const home = pagePath("home", locale);
  if (!loaderData.signedIn) {
    return (
      <AuthCard title={t("signOut.title")} intro={t("signOut.signedOut")}>
        <Link to={home} className={`${PRIMARY_BUTTON} w-full`}>
          {t("signOut.home")}
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("signOut.title")} intro={t("signOut.intro")}>
      <Form method="post" reloadDocument className="space-y-4">
        <FormError message={actionData?.formError ?? null} />
        <button type="submit" className={`${PRIMARY_BUTTON} w-full`} data-testid="sign-out-confirm">
          {t("signOut.submit")}
        </button>
        <Link to={home} className={`${SECONDARY_BUTTON} w-full`}>
          {t("signOut.cancel")}
        </Link>
      </Form>
    </AuthCard>
  );
}
