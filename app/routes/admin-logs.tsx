import { useTranslation } from "react-i18next";
import { data, useLocation } from "react-router";
import { readQueryLeniently } from "../../features/admin/admin-period.ts";
import { tableHref } from "../../features/admin/admin-table.ts";
import { AdminLayout } from "../../features/admin/components/AdminLayout.tsx";
import { AppLogList } from "../../features/logs/components/AppLogList.tsx";
import { EventLogList } from "../../features/logs/components/EventLogList.tsx";
import { LogTabs } from "../../features/logs/components/LogTabs.tsx";
import { appLogsQuerySchema, eventLogsQuerySchema, LOG_TABS, type LogTab } from "../../features/logs/logs.contract.ts";
import { EmailLogList } from "../../features/mail/components/EmailLogList.tsx";
import { EmailViewer, type ResendOutcome } from "../../features/mail/components/EmailViewer.tsx";
import { emailLogsQuerySchema } from "../../features/mail/mail-log.contract.ts";
import { isApiError } from "../../shared/api-error.ts";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { useLocale } from "../../shared/i18n/use-locale.ts";
import { idParam } from "../../shared/input.ts";
import { apiErrorsOf } from "../../shared/ui/form/submission.ts";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/admin-logs";

const tabOf = (params: URLSearchParams): LogTab => {
  const asked = params.get("tab");
  return (LOG_TABS as readonly string[]).includes(asked ?? "") ? (asked as LogTab) : "app";
};

/**
 * /admin/journaux: the application log (GET /api/admin/logs), the events' history
 * (GET /api/admin/event-logs) and the e-mails sent (GET /api/admin/email-logs, the viewer
 * GET /api/admin/email-logs/{id} at `?tab=emails&view=<id>`), one tab each, filters in the address.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  if (context.user.role !== "admin") throw data({ kind: "forbidden" }, { status: 403 });
  const params = new URL(request.url).searchParams;
  const tab = tabOf(params);
  if (tab === "app") {
    const query = readQueryLeniently(appLogsQuerySchema, params);
    return { tab, query, page: await context.services.logs.appLogs(query) } as const;
  }
  if (tab === "events") {
    const query = readQueryLeniently(eventLogsQuerySchema, params);
    return { tab, query, page: await context.services.logs.eventLogs(query) } as const;
  }
  const query = readQueryLeniently(emailLogsQuerySchema, params);
  const viewId = idParam.safeParse(params.get("view") ?? "");
  const [page, view] = await Promise.all([
    context.services.mailLog.list(query),
    viewId.success
      ? context.services.mailLog.view(viewId.data).catch((error: unknown) => {
          if (isApiError(error) && error.code === "NOT_FOUND") return null;
          throw error;
        })
      : Promise.resolve(null),
  ]);
  return { tab, query, page, view } as const;
}

/** The viewer's resend, posted as a form (JavaScript or not): the same API call, as the admin. */
export async function action({ request, context }: Route.ActionArgs): Promise<ResendOutcome> {
  const locale = localeFromPath(new URL(request.url).pathname);
  const form = await request.formData();
  const id = idParam.safeParse(String(form.get("id") ?? ""));
  if (form.get("intent") !== "resend" || !id.success) {
    return { error: apiErrorsOf(null, locale).formErrors?.[0] ?? "" };
  }
  const answer = await context.api({ url: `/api/admin/email-logs/${id.data}/resend`, body: {}, locale });
  if (answer.status >= 400) return { error: apiErrorsOf(answer.body, locale).formErrors?.[0] ?? "" };
  return { resent: (answer.body as { id: number }).id };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "admin:logs.title", description: "admin:logs.description", noIndex: true });

export default function AdminLogsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const locale = useLocale();
  const { search } = useLocation();
  return (
    <AdminLayout locale={locale} title={t("logs.title")}>
      <LogTabs current={loaderData.tab} />
      {loaderData.tab === "app" ? (
        <AppLogList data={loaderData.page} query={loaderData.query} locale={locale} />
      ) : loaderData.tab === "events" ? (
        <EventLogList data={loaderData.page} query={loaderData.query} locale={locale} />
      ) : (
        <>
          {loaderData.view ? (
            <EmailViewer
              view={loaderData.view}
              locale={locale}
              closeHref={tableHref(search, { view: null, page: loaderData.query.page })}
              outcome={actionData}
            />
          ) : null}
          <EmailLogList data={loaderData.page} query={loaderData.query} locale={locale} />
        </>
      )}
    </AdminLayout>
  );
}
