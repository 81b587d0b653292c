import { RotateCw, X } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import type { Locale } from "../../../shared/constants.ts";
import { SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { formatAdminDateTime } from "../../admin/admin-period.ts";
import type { EmailView } from "../mail-log.contract.ts";
import { MailStatusBadge } from "./EmailLogList.tsx";

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className="font-medium text-ink-700">{label}</dt>
      <dd className="text-ink-900">{children}</dd>
    </div>
  );
}

/** What the page's action answered a resend (a form post: it works without JavaScript). */
export type ResendOutcome = { resent: number } | { error: string };

/**
 * One message as its recipient got it: its HTML in a sandboxed frame (no script, no form, no
 * navigation of the page, nothing of the site's origin), its text version, what was masked, and
 * the resend — or why there is none.
 */
export function EmailViewer({
  view,
  locale,
  closeHref,
  outcome,
}: {
  view: EmailView;
  locale: Locale;
  closeHref: string;
  outcome?: ResendOutcome | null;
}) {
  const { t } = useTranslation("admin");
  const { message } = view;
  const list = (items: string[]) =>
    new Intl.ListFormat(locale === "fr" ? "fr-FR" : "en-GB", { type: "conjunction" }).format(items);
  const secrets = list(view.masked.map((name) => t(`logs.emails.viewer.secrets.${name}`)));
  return (
    <section
      aria-labelledby="email-viewer-title"
      className="mb-6 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="email-viewer"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id="email-viewer-title" className="font-semibold text-ink-900 text-xl">
            {t("logs.emails.viewer.title", { id: message.id })}
          </h2>
          <p className="break-words text-ink-700">{message.subject}</p>
        </div>
        <Link to={closeHref} className={SECONDARY_BUTTON} preventScrollReset>
          <X className="size-4" aria-hidden="true" />
          {t("logs.emails.viewer.close")}
        </Link>
      </div>

      <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        <Fact label={t("logs.emails.viewer.to")}>
          <span className="break-all">{message.recipient}</span>
        </Fact>
        <Fact label={t("logs.emails.template")}>
          {t(`logs.emails.templates.${message.template}`, { defaultValue: message.template })}
        </Fact>
        <Fact label={t("logs.emails.status")}>
          <MailStatusBadge status={message.status} />
        </Fact>
        <Fact label={t("logs.emails.viewer.queuedAt")}>{formatAdminDateTime(message.createdAt, locale)}</Fact>
        <Fact label={t("logs.emails.viewer.sentAt")}>
          {message.sentAt ? formatAdminDateTime(message.sentAt, locale) : t("logs.emails.viewer.notSent")}
        </Fact>
        <Fact label={t("logs.emails.viewer.attempts")}>{message.attempts}</Fact>
        {message.error ? (
          <Fact label={t("logs.emails.viewer.error")}>
            <span className="break-words">{message.error}</span>
          </Fact>
        ) : null}
        <Fact label={t("logs.emails.viewer.opens")}>{t("logs.emails.viewer.notTracked")}</Fact>
      </dl>

      {outcome ? (
        "resent" in outcome ? (
          <p role="status" className="mt-3 rounded-lg bg-emerald-50 p-3 text-emerald-950 text-sm">
            {t("logs.emails.viewer.resent", { id: outcome.resent })}
          </p>
        ) : (
          <p role="alert" className="mt-3 rounded-lg bg-red-50 p-3 text-red-900 text-sm">
            {outcome.error}
          </p>
        )
      ) : null}

      <div className="mt-3 flex flex-wrap items-center gap-3">
        {view.resendable ? (
          <Form method="post" className="flex flex-wrap items-center gap-3" preventScrollReset>
            <input type="hidden" name="intent" value="resend" />
            <input type="hidden" name="id" value={message.id} />
            <button type="submit" className={SECONDARY_BUTTON}>
              <RotateCw className="size-4" aria-hidden="true" />
              {t("logs.emails.viewer.resend")}
            </button>
            <span className="text-ink-700 text-sm">{t("logs.emails.viewer.resendHint")}</span>
          </Form>
        ) : view.masked.length ? (
          <p className="text-ink-700 text-sm">{t("logs.emails.viewer.notResendable", { list: secrets })}</p>
        ) : null}
      </div>

      {view.renderError ? (
        <p role="alert" className="mt-4 rounded-lg bg-amber-50 p-3 text-amber-950 text-sm">
          {t("logs.emails.viewer.unrenderable", { error: view.renderError })}
        </p>
      ) : (
        <>
          <p className="mt-4 text-ink-700 text-sm">
            {t("logs.emails.viewer.rendered")}
            {view.masked.length ? ` ${t("logs.emails.viewer.masked", { list: secrets })}` : ""}
          </p>
          <h3 className="mt-3 font-semibold text-ink-900">{t("logs.emails.viewer.html")}</h3>
          <iframe
            title={t("logs.emails.viewer.frameTitle", { id: message.id })}
            srcDoc={view.html}
            sandbox=""
            referrerPolicy="no-referrer"
            className="mt-2 h-[32rem] w-full rounded-lg border border-slate-200 bg-slate-100"
          />
          <h3 className="mt-4 font-semibold text-ink-900">{t("logs.emails.viewer.text")}</h3>
          <pre className="mt-2 whitespace-pre-wrap break-words rounded-lg bg-slate-50 p-3 text-sm">{view.text}</pre>
        </>
      )}
    </section>
  );
}
