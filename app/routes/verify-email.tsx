import { CircleCheck } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { AuthCard } from "../../features/accounts/components/AuthCard.tsx";
import { safeNext } from "../../features/accounts/components/safe-next.ts";
import { VerifyEmailPanel } from "../../features/accounts/components/VerifyEmailPanel.tsx";
import { pagePath } from "../../shared/i18n/pages.ts";
import { PRIMARY_BUTTON } from "../../shared/ui/fields.tsx";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/verify-email";

export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  const me = await context.services.accounts.me(context.user.id);
  return { email: me.pendingEmail ?? me.email, status: me.emailStatus };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "account:verify.title", description: "account:verify.description", noIndex: true });

export default function VerifyEmailPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("account");
  const locale = i18n.language === "en" ? "en" : "fr";
  const [params] = useSearchParams();
  const next = safeNext(params.get("next")) ?? pagePath("account", locale);
  if (loaderData.status === "verified") {
    return (
      <AuthCard title={t("verify.title")}>
        <p className="flex items-center gap-2 text-emerald-900" role="status">
          <CircleCheck className="h-5 w-5" aria-hidden="true" />
          {t("verify.done")}
        </p>
        <Link to={next} className={`${PRIMARY_BUTTON} mt-6 w-full`}>
          {t("verify.continue")}
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("verify.title")}>
      <VerifyEmailPanel
        email={loaderData.email}
        onVerified={() => window.location.assign(`${next}${next.includes("?") ? "&" : "?"}verified=1`)}
      />
    </AuthCard>
  );
}
