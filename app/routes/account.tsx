import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { AccountLayout } from "../../features/accounts/components/AccountLayout.tsx";
import { ProfileForm } from "../../features/accounts/components/ProfileForm.tsx";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { showToast } from "../../shared/ui/lazy-toasts.tsx";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/account";

export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  const locale = localeFromPath(new URL(request.url).pathname);
  const [me, countries] = await Promise.all([
    context.services.accounts.me(context.user.id),
    context.services.geo.countries(locale),
  ]);
  return { me, countries };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "account:profile.title", description: "account:profile.description", noIndex: true });

export default function AccountPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("account");
  const locale = i18n.language === "en" ? "en" : "fr";
  const [params] = useSearchParams();
  const [me, setMe] = useState(loaderData.me);
  useEffect(() => {
    if (params.get("verified")) showToast("success", t("verify.done"));
    if (params.get("reset")) showToast("success", t("reset.done"));
  }, [params, t]);
  return (
    <AccountLayout locale={locale} title={t("profile.title")}>
      {me.emailStatus === "unverified" && (
        <p className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950 text-sm" role="note">
          {t("profile.unverifiedBanner")}{" "}
          <Link to={pagePath("verifyEmail", locale)} className="font-semibold underline">
            {t("profile.verifyNow")}
          </Link>
        </p>
      )}
      <ProfileForm
        me={me}
        countries={loaderData.countries}
        onSaved={(saved, message) => {
          setMe(saved);
          showToast("success", message);
        }}
      />
    </AccountLayout>
  );
}
