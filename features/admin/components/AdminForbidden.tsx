import { ShieldAlert } from "lucide-react";
import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { useLocale } from "../../../shared/i18n/use-locale.ts";

/**
 * The admin area's error boundary: a signed-in member who is not an admin is told so plainly, with
 * a way to sign in with another account; any other error goes up to the site's own boundary.
 */
export function AdminForbidden() {
  const error = useRouteError();
  const { t } = useTranslation("admin");
  const locale = useLocale();
  if (!isRouteErrorResponse(error) || error.status !== 403) throw error;
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center" data-error="forbidden">
      <ShieldAlert className="mb-4 h-12 w-12 text-brand-600" aria-hidden="true" />
      <h1 className="font-bold text-2xl sm:text-3xl">{t("forbidden.title")}</h1>
      <p className="mt-3 text-ink-700">{t("common:errors.forbidden")}</p>
      <Link
        to={pagePath("login", locale)}
        className="mt-8 rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
      >
        {t("forbidden.signIn")}
      </Link>
    </section>
  );
}
