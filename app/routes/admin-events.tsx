import { ShieldAlert } from "lucide-react";
import { useTranslation } from "react-i18next";
import { data, isRouteErrorResponse, Link, useRouteError } from "react-router";
import { AdminLayout } from "../../features/admin/components/AdminLayout.tsx";
import {
  EventsManager,
  QUEUES,
  type Queue,
  type QueueEvent,
  type QueueRequest,
} from "../../features/editor/components/admin/EventsManager.tsx";
import { pagePath } from "../../shared/i18n/pages.ts";
import { useLocale } from "../../shared/i18n/use-locale.ts";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/admin-events";

export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  if (context.user.role !== "admin") throw data({ kind: "forbidden" }, { status: 403 });
  const url = new URL(request.url);
  const asked = url.searchParams.get("queue");
  const queue: Queue = (QUEUES as readonly string[]).includes(asked ?? "") ? (asked as Queue) : "pending";
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const pageNumber = Number(url.searchParams.get("page") ?? "1");
  const page = Number.isInteger(pageNumber) && pageNumber >= 1 && pageNumber <= 10_000 ? pageNumber : 1;
  const result = await context.services.editor.moderationQueue({ queue, q: q || undefined, page });
  return {
    queue,
    q,
    page,
    total: result.total,
    items: result.items as (QueueEvent | QueueRequest)[],
  };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "editor:admin.title", description: "editor:admin.description", noIndex: true });

export default function AdminEventsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("editor");
  const locale = useLocale();
  return (
    <AdminLayout locale={locale} title={t("admin.title")} lead={t("admin.lead")}>
      <EventsManager locale={locale} {...loaderData} />
    </AdminLayout>
  );
}

/** A signed-in member who is not an admin: said plainly, with a way to sign in with another account. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation("editor");
  const locale = useLocale();
  if (!isRouteErrorResponse(error) || error.status !== 403) throw error;
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center" data-error="forbidden">
      <ShieldAlert className="mb-4 h-12 w-12 text-brand-600" aria-hidden="true" />
      <h1 className="font-bold text-2xl sm:text-3xl">{t("admin.forbiddenTitle")}</h1>
      <p className="mt-3 text-ink-700">{t("common:errors.forbidden")}</p>
      <Link
        to={pagePath("login", locale)}
        className="mt-8 rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
      >
        {t("admin.signIn")}
      </Link>
    </section>
  );
}
