import { BellOff } from "lucide-react";
import { useTranslation } from "react-i18next";
import { pagePath } from "../../shared/i18n/pages.ts";
import { useLocale } from "../../shared/i18n/use-locale.ts";
import { PRIMARY_BUTTON } from "../../shared/ui/fields.tsx";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/unsubscribe";

/**
 * An alert mail's unsubscribe link: says what it turns off, with a button. The button (a plain
 * form) posts to this same address, which mail clients also POST to for one-click (RFC 8058).
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const target = await context.services.alerts.describeToken(token);
  return { token, target, done: url.searchParams.get("done") === "1" };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, {
    title: "account:unsubscribe.title",
    description: "account:unsubscribe.description",
    noIndex: true,
  });

export default function UnsubscribePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("account");
  const locale = useLocale();
  const { token, target, done } = loaderData;
  const what = target
    ? target.label
      ? t("unsubscribe.search", { label: target.label })
      : t(`alerts.kinds.${target.kind}.label`)
    : "";
  return (
    <div className="mx-auto w-full max-w-lg px-4 py-10 sm:py-16">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <BellOff className="size-8 text-brand-700" aria-hidden="true" />
        <h1 className="mt-3 font-bold text-2xl text-ink-900">{t("unsubscribe.title")}</h1>
        {!target ? (
          <p className="mt-3 text-ink-700" role="alert">
            {t("unsubscribe.invalid")}
          </p>
        ) : done ? (
          <p className="mt-3 text-ink-700" role="status" data-testid="unsubscribed">
            {t(target.kind === "search_digest" ? "unsubscribe.doneSearch" : "unsubscribe.done", { what })}
          </p>
        ) : (
          <form method="post" action={`${pagePath("unsubscribe", locale)}?${new URLSearchParams({ token })}`}>
            <p className="mt-3 text-ink-700">{t("unsubscribe.question", { what })}</p>
            <input type="hidden" name="confirm" value="1" />
            <button type="submit" className={`${PRIMARY_BUTTON} mt-5 w-full sm:w-auto`}>
              {t("unsubscribe.button")}
            </button>
          </form>
        )}
        <p className="mt-6 text-ink-500 text-sm">
          {t("unsubscribe.manage")}{" "}
          <a href={pagePath("alerts", locale)} className="font-medium text-brand-700 underline">
            {t("unsubscribe.manageLink")}
          </a>
        </p>
      </div>
    </div>
  );
}
