import { Activity, Cpu, Database, HardDrive, MemoryStick, Timer } from "lucide-react";
import { type ReactNode, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useRevalidator } from "react-router";
import type { Locale } from "../../../shared/constants.ts";
import { formatMoneyCents, formatNumber } from "../../../shared/format.ts";
import { cx } from "../../../shared/ui/cx.ts";
import type { Dashboard } from "../admin.contract.ts";
import { tableHref } from "../admin-table.ts";
import { formatBytes, formatLatency, formatPercent, formatUptime } from "./dashboard-format.ts";
import { LoadChart, TrafficChart } from "./TrafficChart.tsx";

/** The live figures are read again this often while the page is in view. */
const REFRESH_MS = 30_000;

function Card({
  icon,
  title,
  value,
  detail,
  percent,
}: {
  icon: ReactNode;
  title: string;
  value: string;
  detail?: string;
  /** Draws a gauge (0–100) under the figure; the figure says the same in words. */
  percent?: number;
}) {
  const high = percent !== undefined && percent >= 85;
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="flex items-center gap-2 text-ink-700 text-sm">
        {icon}
        {title}
      </dt>
      <dd className="mt-1 font-bold text-2xl text-ink-900 tabular-nums">{value}</dd>
      {percent !== undefined ? (
        <dd aria-hidden="true" className="mt-2 h-2 overflow-hidden rounded-full bg-slate-100">
          <div
            className={cx("h-full rounded-full", high ? "bg-red-700" : "bg-brand-600")}
            style={{ width: `${Math.min(100, Math.max(0, percent))}%` }}
          />
        </dd>
      ) : null}
      {detail ? <dd className="mt-1 text-ink-700 text-xs">{detail}</dd> : null}
    </div>
  );
}

function Figures({ title, items }: { title: string; items: [string, string][] }) {
  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm" aria-label={title}>
      <h3 className="font-semibold text-ink-900">{title}</h3>
      <dl className="mt-2 divide-y divide-slate-100 text-sm">
        {items.map(([label, value]) => (
          <div key={label} className="flex items-baseline justify-between gap-3 py-1.5">
            <dt className="text-ink-700">{label}</dt>
            <dd className="font-semibold text-ink-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** `/admin`: the machine, the traffic and the business at a glance, read again every 30 s. */
export function AdminDashboard({ data, locale, range }: { data: Dashboard; locale: Locale; range: "24h" | "30d" }) {
  const { t } = useTranslation("admin");
  const { search } = useLocation();
  const revalidator = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") void revalidator.revalidate();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [revalidator]);

  const n = (value: number) => formatNumber(value, locale);
  const tag = locale === "fr" ? "fr-FR" : "en-GB";
  const hourLabel = (at: string) =>
    new Intl.DateTimeFormat(tag, { hour: "2-digit", minute: "2-digit", timeZone: "Europe/Paris" }).format(new Date(at));
  const dayLabel = (at: string) =>
    new Intl.DateTimeFormat(tag, { day: "2-digit", month: "2-digit", timeZone: "UTC" }).format(new Date(at));
  const points = range === "24h" ? data.traffic.hours : data.traffic.days;
  const tick = range === "24h" ? hourLabel : dayLabel;
  const { members, events, results, sales, posters, mail, jobs } = data.business;
  const disk = data.disk.data;

  return (
    <div className="space-y-8" data-testid="admin-dashboard">
      <section aria-labelledby="machine-title">
        <h2 id="machine-title" className="font-semibold text-ink-900 text-xl">
          {t("dashboard.machine")}
        </h2>
        <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="machine">
          <Card
            icon={<Cpu className="size-4" aria-hidden="true" />}
            title={t("dashboard.cpu")}
            value={formatPercent(data.cpu.percent, locale)}
            percent={data.cpu.percent}
            detail={t("dashboard.cores", {
              count: data.cpu.cores,
              load: data.cpu.loadAverage.map((l) => formatNumber(l, locale, { maximumFractionDigits: 2 })).join(" · "),
            })}
          />
          <Card
            icon={<MemoryStick className="size-4" aria-hidden="true" />}
            title={t("dashboard.memory")}
            value={formatPercent(data.memory.usedPercent, locale)}
            percent={data.memory.usedPercent}
            detail={t("dashboard.memoryDetail", {
              used: formatBytes(data.memory.totalBytes - data.memory.availableBytes, locale),
              total: formatBytes(data.memory.totalBytes, locale),
              process: formatBytes(data.memory.processBytes, locale),
            })}
          />
          <Card
            icon={<HardDrive className="size-4" aria-hidden="true" />}
            title={t("dashboard.disk")}
            value={disk ? formatPercent(disk.usedPercent, locale) : "—"}
            percent={disk?.usedPercent}
            detail={
              disk
                ? t("dashboard.diskDetail", {
                    free: formatBytes(disk.freeBytes, locale),
                    total: formatBytes(disk.totalBytes, locale),
                  })
                : t("dashboard.unknown")
            }
          />
          <Card
            icon={<Database className="size-4" aria-hidden="true" />}
            title={t("dashboard.database")}
            value={data.disk.databaseBytes === null ? "—" : formatBytes(data.disk.databaseBytes, locale)}
          />
          <Card
            icon={<Activity className="size-4" aria-hidden="true" />}
            title={t("dashboard.traffic")}
            value={t("dashboard.perMinute", { value: formatNumber(data.traffic.requestsPerMinute, locale) })}
            detail={t("dashboard.trafficDetail", {
              errors: formatPercent(data.traffic.errorRate * 100, locale, 2),
              p95: formatLatency(data.traffic.p95Ms, locale),
            })}
          />
          <Card
            icon={<Timer className="size-4" aria-hidden="true" />}
            title={t("dashboard.uptime")}
            value={formatUptime(data.uptime.processSeconds, locale)}
            detail={t("dashboard.version", {
              version: data.version.app,
              commit: data.version.commit ?? "—",
              node: data.version.node,
              system: formatUptime(data.uptime.systemSeconds, locale),
            })}
          />
        </dl>
      </section>

      <section aria-labelledby="history-title" className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="history-title" className="font-semibold text-ink-900 text-xl">
            {t("dashboard.history")}
          </h2>
          <nav className="flex gap-1" aria-label={t("dashboard.range")}>
            {(["24h", "30d"] as const).map((r) => (
              <Link
                key={r}
                to={tableHref(search, { range: r === "24h" ? null : r })}
                aria-current={r === range ? "true" : undefined}
                preventScrollReset
                className={cx(
                  "rounded-lg border px-3 py-1.5 font-medium text-sm",
                  r === range
                    ? "border-brand-700 bg-brand-700 text-white"
                    : "border-slate-300 text-ink-900 hover:bg-slate-50",
                )}
              >
                {t(`dashboard.ranges.${r}`)}
              </Link>
            ))}
          </nav>
        </div>
        <div className="mt-4 grid gap-6 lg:grid-cols-2">
          <TrafficChart
            points={points}
            label={t(range === "24h" ? "dashboard.requests24h" : "dashboard.requests30d")}
            maxLabel={(max) => t("dashboard.max", { value: n(max) })}
            tickLabel={tick}
            tableHeaders={{
              period: t("dashboard.period"),
              requests: t("dashboard.requests"),
              errors: t("dashboard.errors"),
            }}
          />
          <LoadChart
            points={points}
            label={t(range === "24h" ? "dashboard.load24h" : "dashboard.load30d")}
            tickLabel={tick}
            legend={{ cpu: t("dashboard.cpu"), memory: t("dashboard.memory") }}
          />
        </div>
        <p className="mt-2 text-ink-700 text-xs">
          {t("dashboard.historyNote", {
            requests: n(points.reduce((s, p) => s + p.requests, 0)),
            errors: n(points.reduce((s, p) => s + p.serverErrors, 0)),
          })}
        </p>
      </section>

      <section aria-labelledby="audience-title">
        <h2 id="audience-title" className="font-semibold text-ink-900 text-xl">
          {t("dashboard.audience")}
        </h2>
        <p className="mt-1 text-ink-700 text-sm">
          {t("dashboard.audienceLead", {
            today: n(data.traffic.audience.viewsToday),
            period: n(data.traffic.audience.views),
            days: data.traffic.audience.days,
          })}
        </p>
        <div className="mt-3 grid gap-3 lg:grid-cols-2">
          <Figures
            title={t("dashboard.topPages")}
            items={
              data.traffic.audience.topPages.length
                ? data.traffic.audience.topPages.map((p) => [p.path, n(p.views)])
                : [[t("dashboard.noViews"), ""]]
            }
          />
          <Figures
            title={t("dashboard.topReferrers")}
            items={
              data.traffic.audience.topReferrers.length
                ? data.traffic.audience.topReferrers.map((r) => [r.host, n(r.views)])
                : [[t("dashboard.noReferrers"), ""]]
            }
          />
        </div>
      </section>

      <section aria-labelledby="business-title">
        <h2 id="business-title" className="font-semibold text-ink-900 text-xl">
          {t("dashboard.business")}
        </h2>
        <div className="mt-3 grid gap-3 sm:grid-cols-2 xl:grid-cols-3" data-testid="business">
          <Figures
            title={t("dashboard.members")}
            items={[
              [t("dashboard.membersTotal"), n(members.total)],
              [t("dashboard.new7d"), n(members.new7d)],
              [t("dashboard.new30d"), n(members.new30d)],
              [t("dashboard.active30d"), n(members.active30d)],
              [t("dashboard.disabled"), n(members.disabled)],
            ]}
          />
          <Figures
            title={t("dashboard.events")}
            items={[
              [t("dashboard.listed"), n(events.listed)],
              [t("dashboard.upcoming"), n(events.upcoming)],
              [t("dashboard.pending"), n(events.pending)],
              [t("dashboard.added30d"), n(events.added30d)],
            ]}
          />
          <Figures
            title={t("dashboard.results")}
            items={[
              [t("dashboard.lines"), n(results.lines)],
              [t("dashboard.imported30d"), n(results.imported30d)],
              [t("dashboard.owned"), n(results.owned)],
            ]}
          />
          <Figures
            title={t("dashboard.sales")}
            items={[
              [t("dashboard.paidOrders"), n(sales.paidOrders)],
              [t("dashboard.amount"), formatMoneyCents(sales.amountCents, locale)],
              [t("dashboard.creditsSold"), n(sales.creditsSold)],
              [t("dashboard.postersCreated"), n(posters.created30d)],
              [t("dashboard.postersExported"), n(posters.exported30d)],
            ]}
          />
          <Figures
            title={t("dashboard.mail")}
            items={[
              [t("dashboard.mailQueued"), n(mail.queued)],
              [t("dashboard.mailSent"), n(mail.sent24h)],
              [t("dashboard.mailFailed"), n(mail.failed24h)],
            ]}
          />
          <Figures
            title={t("dashboard.jobs")}
            items={[
              [t("dashboard.jobsPending"), n(jobs.pending)],
              [t("dashboard.jobsRunning"), n(jobs.running)],
              [t("dashboard.jobsFailed"), n(jobs.failed)],
              ...jobs.byQueue
                .filter((q) => q.failed > 0)
                .map((q): [string, string] => [t("dashboard.jobsFailedIn", { queue: q.queue }), n(q.failed)]),
            ]}
          />
        </div>
      </section>
    </div>
  );
}
