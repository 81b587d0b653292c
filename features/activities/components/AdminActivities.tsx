import { useTranslation } from "react-i18next";
import type { Locale } from "../../../shared/constants.ts";
import type { AdminActivities } from "../activities.contract.ts";
import { formatActivityDate } from "./format.ts";

/** /admin/activities: imports per member, failed syncs, Strava's rate limits; never an activity's content. */
export function AdminActivitiesView({ data, locale }: { data: AdminActivities; locale: Locale }) {
  const { t } = useTranslation("activities");
  const rate = data.rateLimit;
  return (
    <div className="space-y-6">
      <p className="text-ink-700 text-sm">{t("admin.note")}</p>
      <section aria-labelledby="rate-title" className="rounded-2xl border border-slate-200 bg-white p-4">
        <h2 id="rate-title" className="font-semibold text-ink-900 text-lg">
          {t("admin.rate")}
        </h2>
        <ul className="mt-2 space-y-1 text-sm tabular-nums" data-testid="rate-limit">
          <li>{t("admin.short", { usage: rate.shortUsage, limit: rate.shortLimit })}</li>
          <li>{t("admin.daily", { usage: rate.dailyUsage, limit: rate.dailyLimit })}</li>
          <li>{t("admin.refused", { count: rate.refused })}</li>
          <li>{t("admin.waiting", { count: rate.waitingSyncs })}</li>
        </ul>
      </section>
      <section aria-labelledby="failed-title" className="rounded-2xl border border-slate-200 bg-white p-4">
        <h2 id="failed-title" className="font-semibold text-ink-900 text-lg">
          {t("admin.failed")}
        </h2>
        {data.failedSyncs.length === 0 ? (
          <p className="mt-2 text-ink-700 text-sm">{t("admin.noFailed")}</p>
        ) : (
          <table className="mt-2 w-full text-left text-sm">
            <thead className="text-ink-500">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t("admin.member")}
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t("admin.error")}
                </th>
                <th scope="col" className="py-1 font-medium">
                  {t("admin.at")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.failedSyncs.map((f) => (
                <tr key={f.userId}>
                  <th scope="row" className="py-1 pr-3 font-medium">
                    {f.name}
                  </th>
                  <td className="py-1 pr-3">{f.lastError ?? ""}</td>
                  <td className="py-1">{f.at ? formatActivityDate(f.at, locale) : ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="members-title" className="rounded-2xl border border-slate-200 bg-white p-4">
        <h2 id="members-title" className="font-semibold text-ink-900 text-lg">
          {t("admin.members")}
        </h2>
        {data.members.length === 0 ? (
          <p className="mt-2 text-ink-700 text-sm">{t("admin.none")}</p>
        ) : (
          <div>
            <table className="mt-2 w-full text-left text-sm tabular-nums" data-testid="admin-members">
              <thead className="text-ink-500">
                <tr>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("admin.member")}
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("admin.strava")}
                  </th>
                  <th scope="col" className="py-1 pr-3 font-medium">
                    {t("admin.files")}
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    {t("admin.sync")}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.members.map((m) => (
                  <tr key={m.userId}>
                    <th scope="row" className="py-1 pr-3 font-medium">
                      {m.name || `#${m.userId}`}
                    </th>
                    <td className="py-1 pr-3">{m.strava}</td>
                    <td className="py-1 pr-3">{m.files}</td>
                    <td className="py-1">{m.syncState ? t(`strava.states.${m.syncState}`, { time: "" }) : ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
