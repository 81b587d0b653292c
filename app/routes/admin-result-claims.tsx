import { useTranslation } from "react-i18next";
import { data, useRevalidator } from "react-router";
import { AdminLayout } from "../../features/admin/components/AdminLayout.tsx";
import { ClaimsReview } from "../../features/results/components/ClaimsReview.tsx";
import { useLocale } from "../../shared/i18n/use-locale.ts";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/admin-result-claims";

/**
 * Claims on results waiting for a decision, every edition's (GET /api/admin/result-claims), beside
 * the other moderation queues; each edition's organisers see theirs on its results import page.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  if (context.user.role !== "admin") throw data({ kind: "forbidden" }, { status: 403 });
  return { claims: await context.services.resultClaims.pending() };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "results:review.adminTitle", description: "results:review.adminLead", noIndex: true });

export default function AdminResultClaimsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("results");
  const locale = useLocale();
  const revalidator = useRevalidator();
  return (
    <AdminLayout locale={locale} title={t("review.adminTitle")} lead={t("review.adminLead")} wide={false}>
      <ClaimsReview claims={loaderData.claims} locale={locale} withEvent onDecided={() => revalidator.revalidate()} />
    </AdminLayout>
  );
}
