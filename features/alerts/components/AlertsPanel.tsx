import { BellRing, Trash2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { apiFetch } from "../../../shared/api-client.ts";
import { ALERT_KINDS, type AlertKind, type Locale } from "../../../shared/constants.ts";
import { formatLongDate } from "../../../shared/dates.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import type { Alerts } from "../alerts.contract.ts";

/** The account area's "Alerts" tab: saved searches, and one switch per kind of alert mail. */
export function AlertsPanel({ initial, locale }: { initial: Alerts; locale: Locale }) {
  const { t } = useTranslation("account");
  const [searches, setSearches] = useState(initial.searches);
  const [muted, setMuted] = useState<AlertKind[]>(initial.muted);
  const home = pagePath("home", locale);

  async function remove(id: number) {
    const response = await apiFetch(`/api/user/alerts/${id}`, { method: "DELETE" });
    if (!response.ok) return showToast("error", t("alerts.error"));
    setSearches((list) => list.filter((s) => s.id !== id));
    await showToast("success", t("alerts.deleted"));
  }

  async function toggle(kind: AlertKind, on: boolean) {
    const next = on ? muted.filter((k) => k !== kind) : [...muted, kind];
    setMuted(next);
    const response = await apiFetch("/api/user/alerts/preferences", {
      method: "PUT",
      body: JSON.stringify({ muted: next }),
    });
    if (!response.ok) {
      setMuted(muted);
      return showToast("error", t("alerts.error"));
    }
    await showToast("success", t("alerts.saved"));
  }

  return (
    <div className="space-y-6">
      <section aria-labelledby="alerts-searches" className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="alerts-searches" className="font-semibold text-ink-900 text-lg">
          {t("alerts.searchesTitle")}
        </h2>
        <p className="mt-1 text-ink-700 text-sm">{t("alerts.searchesHint", { max: initial.max })}</p>
        {searches.length === 0 ? (
          <div className="mt-4 rounded-xl bg-slate-50 p-4 text-ink-700 text-sm">
            <p>{t("alerts.empty")}</p>
            <a href={home} className={`${SECONDARY_BUTTON} mt-3`}>
              {t("alerts.emptyAction")}
            </a>
          </div>
        ) : (
          <ul className="mt-4 divide-y divide-slate-200" data-testid="saved-searches">
            {searches.map((search) => (
              <li key={search.id} className="flex items-start gap-3 py-3">
                <BellRing className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden="true" />
                <div className="min-w-0 flex-1">
                  <a
                    href={`${home}?${search.query}`}
                    className="font-semibold text-ink-900 underline-offset-2 hover:underline"
                  >
                    {search.label}
                  </a>
                  <p className="text-ink-500 text-sm">
                    {search.lastSentAt
                      ? t("alerts.lastSent", { date: formatLongDate(search.lastSentAt.slice(0, 10), locale) })
                      : t("alerts.since", { date: formatLongDate(search.createdAt.slice(0, 10), locale) })}
                  </p>
                </div>
                <button
                  type="button"
                  onClick={() => remove(search.id)}
                  className="inline-flex h-10 items-center gap-1.5 rounded-lg px-2.5 font-medium text-red-800 text-sm hover:bg-red-50"
                >
                  <Trash2 className="size-4" aria-hidden="true" />
                  <span className="sr-only sm:not-sr-only">{t("alerts.delete")}</span>
                  <span className="sr-only">{search.label}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="alerts-mails" className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="alerts-mails" className="font-semibold text-ink-900 text-lg">
          {t("alerts.mailsTitle")}
        </h2>
        <ul className="mt-3 space-y-3">
          {ALERT_KINDS.map((kind) => (
            <li key={kind}>
              <label className="flex items-start gap-3">
                <input
                  type="checkbox"
                  name={kind}
                  className="mt-1 h-5 w-5 accent-brand-700"
                  checked={!muted.includes(kind)}
                  onChange={(event) => toggle(kind, event.currentTarget.checked)}
                />
                <span>
                  <span className="block font-medium text-ink-900">{t(`alerts.kinds.${kind}.label`)}</span>
                  <span className="block text-ink-500 text-sm">{t(`alerts.kinds.${kind}.hint`)}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
