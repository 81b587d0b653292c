import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { AdminForbidden } from "../../features/admin/components/AdminForbidden.tsx";
import { AdminLayout } from "../../features/admin/components/AdminLayout.tsx";
import {
  EventsManager,
  QUEUES,
  type Queue,
  type QueueEvent,
  type QueueRequest,
} from "../../features/editor/components/admin/EventsManager.tsx";
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
export const ErrorBoundary = AdminForbidden;
