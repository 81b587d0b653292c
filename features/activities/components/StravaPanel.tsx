import { RefreshCw, Unplug } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiFetch } from "../../../shared/api-client.ts";
import type { Locale } from "../../../shared/constants.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { DANGER_BUTTON, PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import type { StravaStatus } from "../activities.contract.ts";
import { formatActivityDate, formatClock } from "./format.ts";

const RUNNING = new Set(["queued", "syncing", "waiting"]);
/** How often the page asks for the sync's progress while one runs. */
const POLL_MS = 3_000;

/** Strava's attribution, required wherever its data is shown. */
export function PoweredByStrava() {
  const { t } = useTranslation("activities");
  return (
    <p className="font-semibold text-[#B83700] text-xs uppercase tracking-wide" data-testid="powered-by-strava">
      {t("detail.poweredBy")}
    </p>
  );
}

/** /user/activity/strava: connect, status and progress of the sync, sync now, disconnect. */
export function StravaPanel({
  initial,
  locale,
  notice,
}: {
  initial: StravaStatus;
  locale: Locale;
  /** From the callback's redirect: "connected" or an error code. */
  notice: { connected: boolean; error: string | null };
}) {
  const { t } = useTranslation("activities");
  const [status, setStatus] = useState(initial);
  const [busy, setBusy] = useState(false);
  const running = status.syncState !== null && RUNNING.has(status.syncState);

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(async () => {
      const response = await apiFetch("/api/user/activity/strava");
      if (response.ok) setStatus((await response.json()) as StravaStatus);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running]);

  async function sync() {
    setBusy(true);
    const response = await apiFetch("/api/user/activity/strava/sync", { method: "POST", body: "{}" });
    setBusy(false);
    if (!response.ok) return showToast("error", t("strava.error"));
    setStatus((await response.json()) as StravaStatus);
  }

  async function disconnect() {
    if (!window.confirm(t("strava.disconnectConfirm"))) return;
    setBusy(true);
    const response = await apiFetch("/api/user/activity/strava", { method: "DELETE" });
    setBusy(false);
    if (!response.ok) return showToast("error", t("strava.error"));
    const { revoked, deleted } = (await response.json()) as { revoked: boolean; deleted: number };
    setStatus({ ...status, connected: false, athleteId: null, syncState: null, activityCount: 0, syncDone: 0 });
    await showToast(
      revoked ? "success" : "error",
      revoked ? t("strava.disconnected", { count: deleted }) : t("strava.notRevoked"),
    );
  }

  const stateText =
    status.syncState === "waiting" && status.resumeAt
      ? t("strava.states.waiting", { time: formatClock(status.resumeAt, locale) })
      : status.syncState
        ? t(`strava.states.${status.syncState}`)
        : "";

  return (
    <section
      className="space-y-4 rounded-2xl border border-slate-200 bg-white p-4 sm:p-6"
      aria-labelledby="strava-title"
    >
      <div className="flex items-start justify-between gap-3">
        <h2 id="strava-title" className="font-semibold text-ink-900 text-lg">
          {t("strava.title")}
        </h2>
        <PoweredByStrava />
      </div>
      <p className="text-ink-700 text-sm">{t("strava.intro")}</p>
      {notice.error && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-red-800 text-sm">
          {t(`common:errors.${errorKey(notice.error)}`, { defaultValue: t("strava.error") })}
        </p>
      )}
      {notice.connected && status.connected && (
        <p role="status" className="rounded-lg bg-emerald-50 p-3 text-emerald-900 text-sm">
          {t("strava.justConnected")}
        </p>
      )}
      {!status.available ? (
        <p className="rounded-lg bg-slate-50 p-3 text-ink-700 text-sm">{t("strava.unavailable")}</p>
      ) : !status.connected ? (
        <div className="space-y-3">
          <p className="text-ink-700 text-sm">{t("strava.notConnected")}</p>
          <a
            href={`/api/strava/connect?lang=${locale}`}
            className={`${PRIMARY_BUTTON} bg-[#B83700] hover:bg-[#9A2E00]`}
          >
            {t("strava.connect")}
          </a>
        </div>
      ) : (
        <div className="space-y-3">
          <p className="text-ink-900 text-sm">{t("strava.connected", { id: status.athleteId })}</p>
          <div
            role="status"
            aria-live="polite"
            className="rounded-lg bg-slate-50 p-3 text-sm"
            data-testid="sync-status"
          >
            <p className={`font-semibold ${status.failed ? "text-red-800" : "text-ink-900"}`}>{stateText}</p>
            {running && <p className="text-ink-700">{t("strava.progress", { count: status.syncDone })}</p>}
            <p className="text-ink-700">
              {status.lastSyncAt
                ? t("strava.lastSync", { date: formatActivityDate(status.lastSyncAt, locale) })
                : t("strava.never")}
            </p>
            <p className="text-ink-700">{t("strava.count", { count: status.activityCount })}</p>
          </div>
          <div className="flex flex-wrap gap-2">
            <button type="button" className={SECONDARY_BUTTON} onClick={sync} disabled={busy || running}>
              <RefreshCw className="size-4" aria-hidden="true" />
              {t("strava.sync")}
            </button>
            <a href={pagePath("activities", locale)} className={SECONDARY_BUTTON}>
              {t("strava.seeActivities")}
            </a>
            <button type="button" className={DANGER_BUTTON} onClick={disconnect} disabled={busy}>
              <Unplug className="size-4" aria-hidden="true" />
              {t("strava.disconnect")}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}

/** "STRAVA_SCOPE_MISSING" → "stravaScopeMissing" (the catalogue's message key). */
function errorKey(code: string): string {
  return code.toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}
