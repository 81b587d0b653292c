import { useState } from "react";
import { useTranslation } from "react-i18next";
import { data, isRouteErrorResponse, Link, useRevalidator, useRouteError } from "react-router";
import { AdminLayout } from "../../features/admin/components/AdminLayout.tsx";
import { callApi } from "../../shared/api-client.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { useLocale } from "../../shared/i18n/use-locale.ts";
import { DANGER_BUTTON, SECONDARY_BUTTON } from "../../shared/ui/fields.tsx";
import { showToast } from "../../shared/ui/lazy-toasts.tsx";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/admin-comments";

/** The comments moderation queue (GET /api/admin/comments): reported comments, most reported first. */
export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  if (context.user.role !== "admin") throw data({ kind: "forbidden" }, { status: 403 });
  return context.services.comments.reportQueue();
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "community:admin.title", description: "community:admin.description", noIndex: true });

export default function AdminCommentsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("community");
  const locale = useLocale();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState<number | null>(null);

  async function settle(commentId: number, action: "dismiss" | "delete") {
    setBusy(commentId);
    const result = await callApi("/api/admin/comments", {
      method: "POST",
      body: JSON.stringify({ commentId, action }),
    });
    setBusy(null);
    if (result.ok) {
      void showToast("success", t(action === "delete" ? "admin.removed" : "admin.kept"));
      await revalidator.revalidate();
    } else void showToast("error", result.message ?? t("comments.loadError"));
  }

  return (
    <AdminLayout locale={locale} title={t("admin.heading")} wide={false}>
      <p className="mb-5 text-ink-700">{t("admin.lead")}</p>
      {loaderData.items.length === 0 && <p className="text-ink-700">{t("admin.empty")}</p>}
      <ul className="space-y-4" data-testid="reported-comments">
        {loaderData.items.map(({ comment, reports, eventSlug }) => (
          <li key={comment.id} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
            <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
              <span className="font-semibold text-ink-900">
                {comment.author?.name ?? t("comments.formerMember")}
                {comment.targetType === "wall" && <span className="ml-2 text-ink-500">· {t("admin.wall")}</span>}
              </span>
              <span className="rounded-full bg-red-50 px-2 py-0.5 font-semibold text-red-800">
                {t("admin.reports", { count: reports.length })}
              </span>
            </div>
            <p className="mt-2 whitespace-pre-line break-words text-ink-800">
              {comment.deleted ? t("comments.deletedPlaceholder") : comment.body}
            </p>
            <ul className="mt-3 space-y-1 border-slate-100 border-t pt-2 text-ink-700 text-sm">
              {reports.map((report) => (
                <li key={`${report.reporterId}-${report.createdAt}`}>
                  {report.reason ? t("admin.quoted", { reason: report.reason }) : t("admin.noReason")}
                </li>
              ))}
            </ul>
            <div className="mt-3 flex flex-wrap items-center gap-2">
              {eventSlug && (
                <Link
                  className="mr-auto text-brand-700 text-sm underline"
                  to={pagePath("event", locale, { slug: eventSlug })}
                >
                  {t("admin.onEvent")}
                </Link>
              )}
              <button
                type="button"
                className={SECONDARY_BUTTON}
                disabled={busy === comment.id}
                onClick={() => void settle(comment.id, "dismiss")}
              >
                {t("admin.keep")}
              </button>
              <button
                type="button"
                className={DANGER_BUTTON}
                disabled={busy === comment.id}
                onClick={() => void settle(comment.id, "delete")}
              >
                {t("admin.remove")}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </AdminLayout>
  );
}

/** A signed-in member who is not an admin. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation("community");
  if (!isRouteErrorResponse(error) || error.status !== 403) throw error;
  return (
    <section className="mx-auto max-w-xl px-4 py-20 text-center" data-error="forbidden">
      <h1 className="font-bold text-2xl sm:text-3xl">{t("admin.forbiddenTitle")}</h1>
      <p className="mt-3 text-ink-700">{t("common:errors.forbidden")}</p>
    </section>
  );
}
