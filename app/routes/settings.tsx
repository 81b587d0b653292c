import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AccountLayout } from "../../features/accounts/components/AccountLayout.tsx";
import {
  DisablePanel,
  EmailPanel,
  ExportPanel,
  LinkedAccountsPanel,
  PasswordPanel,
  PreferencesPanel,
} from "../../features/accounts/components/SettingsPanels.tsx";
import { showToast } from "../../shared/ui/lazy-toasts.tsx";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/settings";

export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  return { me: await context.services.accounts.me(context.user.id), providers: context.oauthProviders };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "account:settings.title", description: "account:settings.description", noIndex: true });

export default function SettingsPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("account");
  const locale = i18n.language === "en" ? "en" : "fr";
  const [me, setMe] = useState(loaderData.me);
  const notify = (message: string) => showToast("success", message);
  return (
    <AccountLayout locale={locale} title={t("settings.title")}>
      <div className="space-y-6">
        <EmailPanel me={me} onChange={setMe} notify={notify} />
        <PasswordPanel me={me} onChange={setMe} notify={notify} />
        <PreferencesPanel me={me} onChange={setMe} notify={notify} />
        <LinkedAccountsPanel me={me} providers={loaderData.providers} locale={locale} />
        <ExportPanel />
        <DisablePanel me={me} locale={locale} />
      </div>
    </AccountLayout>
  );
}
