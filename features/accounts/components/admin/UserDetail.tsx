import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Locale } from "../../../../shared/constants.ts";
import { SPORTS } from "../../../../shared/constants.ts";
import { formatCompactDate } from "../../../../shared/dates.ts";
import { distanceBesideName, formatMoneyCents, formatRaceTime } from "../../../../shared/format.ts";
import { pagePath } from "../../../../shared/i18n/pages.ts";
import { useLocale } from "../../../../shared/i18n/use-locale.ts";
import { cx } from "../../../../shared/ui/cx.ts";
import type { AdminUserDetail } from "../../admin-users.contract.ts";
import { clockTime, compactDay, longDay, STATUS_STYLE } from "./user-format.ts";

const CARD = "rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5";

/** "samedi 14 juin 2026 à 14:05". */
function moment(iso: string | null, locale: Locale, never: string): string {
  if (!iso) return never;
  return `${longDay(iso, locale)} ${locale === "en" ? "at" : "à"} ${clockTime(iso, locale)}`;
}

/** "14/06/26 14:05", where a table has little room. */
const shortMoment = (iso: string, locale: Locale) => `${compactDay(iso, locale)} ${clockTime(iso, locale)}`;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className={CARD} aria-labelledby={id}>
      <h2 id={id} className="mb-3 font-bold text-ink-900 text-lg">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A small table of the member's things; wide ones scroll sideways on a phone. */
function MiniTable({
  caption,
  head,
  rows,
  empty,
}: {
  caption: string;
  head: string[];
  rows: ReactNode[][];
  empty: string;
}) {
  if (rows.length === 0) return <p className="text-ink-700 text-sm">{empty}</p>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than a phone scrolls; the keyboard must reach it.
    <section className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0" tabIndex={0} aria-label={caption}>
      <table className="w-full min-w-[32rem] text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-slate-200 border-b text-ink-700">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="whitespace-nowrap py-2 pr-3 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((cells, i) => (
            <tr key={i}>
              {cells.map((cell, j) => (
                <td key={j} className="py-2 pr-3 align-top">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The account as stored: who they are, how they sign in, when. */
function Profile({ user }: { user: AdminUserDetail["user"] }) {
  const { t } = useTranslation("admin");
  const locale = useLocale();
  const none = t("users.detail.none");
  const sports = user.sports
    .map((key) => SPORTS.find((s) => s.key === key))
    .map((sport) => (sport ? (locale === "en" ? sport.en : sport.fr) : null))
    .filter(Boolean)
    .join(", ");
  const fields: [string, ReactNode][] = [
    [t("users.email"), user.email],
    ...(user.pendingEmail ? ([[t("users.detail.pendingEmail"), user.pendingEmail]] as [string, ReactNode][]) : []),
    [t("users.verified"), t(user.emailStatus === "verified" ? "users.yes" : "users.no")],
    [t("users.detail.pseudo"), user.pseudo || none],
    [
      t("users.detail.slug"),
      user.publicProfile && user.status === "active" ? (
        <Link key="slug" to={pagePath("member", locale, { slug: user.slug })} className="text-brand-700 underline">
          {user.slug}
        </Link>
      ) : (
        user.slug
      ),
    ],
    [t("users.detail.publicProfile"), t(user.publicProfile ? "users.yes" : "users.no")],
    [t("users.detail.place"), [user.city, user.country].filter(Boolean).join(", ") || none],
    [t("users.detail.sports"), sports || none],
    [t("users.detail.language"), t(`users.detail.languages.${user.locale}`)],
    [t("users.detail.newsletter"), t(user.newsletter ? "users.yes" : "users.no")],
    [t("users.detail.password"), t(user.hasPassword ? "users.detail.passwordSet" : "users.detail.passwordNone")],
    [t("users.detail.identities"), user.identities.join(", ") || none],
    [t("users.created"), moment(user.createdAt, locale, none)],
    [t("users.lastLogin"), moment(user.lastLoginAt, locale, t("users.never"))],
    [t("users.logins"), user.loginCount],
    ...(user.disabledAt
      ? ([[t("users.detail.disabledAt"), moment(user.disabledAt, locale, none)]] as [string, ReactNode][])
      : []),
  ];
  return (
    <Section id="member-profile" title={t("users.detail.profile")}>
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        {fields.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-ink-700">{label}</dt>
            <dd className="break-words font-medium text-ink-900">{value}</dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}

/** The status badge and role under the member's name. */
export function MemberBadges({ user }: { user: AdminUserDetail["user"] }) {
  const { t } = useTranslation("admin");
  return (
    <span className="flex flex-wrap gap-2">
      <span className={cx("rounded-full px-2.5 py-0.5 font-semibold text-sm", STATUS_STYLE[user.status])}>
        {t(`users.statuses.${user.status}`)}
      </span>
      <span className="rounded-full bg-brand-50 px-2.5 py-0.5 font-semibold text-brand-800 text-sm">
        {t(`users.roles.${user.role}`)}
      </span>
    </span>
  );
}

/**
 * A member seen by an admin: the profile, the sessions open now, and what they did on the site —
 * the events they listed or organise, their result lines, their orders.
 */
export function UserDetail({ detail }: { detail: AdminUserDetail }) {
  const { t } = useTranslation("admin");
  const locale = useLocale();
  const { user, sessions, overview } = detail;
  const event = (slug: string, name: string) => (
    <Link to={pagePath("event", locale, { slug })} className="text-brand-700 underline-offset-2 hover:underline">
      {name}
    </Link>
  );
  return (
    <div className="space-y-5">
      {user.status === "deleted" && user.deletedAt ? (
        <p className="rounded-lg bg-slate-100 px-4 py-3 text-ink-800 text-sm">
          {t("users.detail.deletedNotice", { date: longDay(user.deletedAt, locale) })}
        </p>
      ) : (
        <Profile user={user} />
      )}

      {user.status === "deleted" ? null : (
        <Section id="member-sessions" title={t("users.sessions.title")}>
          <MiniTable
            caption={t("users.sessions.title")}
            empty={t("users.sessions.empty")}
            head={[
              t("users.sessions.lastSeen"),
              t("users.sessions.created"),
              t("users.sessions.expires"),
              t("users.sessions.ip"),
              t("users.sessions.device"),
              t("users.sessions.remembered"),
            ]}
            rows={sessions.map((s) => [
              <span key="seen" className="whitespace-nowrap">
                {shortMoment(s.lastSeenAt, locale)}
              </span>,
              <span key="created" className="whitespace-nowrap">
                {shortMoment(s.createdAt, locale)}
              </span>,
              <span key="expires" className="whitespace-nowrap">
                {shortMoment(s.expiresAt, locale)}
              </span>,
              s.ip ?? "—",
              <span key="agent" className="line-clamp-2 break-all text-ink-700 text-xs">
                {s.userAgent ?? "—"}
              </span>,
              t(s.persistent ? "users.yes" : "users.no"),
            ])}
          />
        </Section>
      )}

      <Section id="member-events" title={t("users.events.title")}>
        <MiniTable
          caption={t("users.events.title")}
          empty={t("users.events.empty")}
          head={[t("users.events.name"), t("users.events.date"), t("users.events.as"), t("users.events.status")]}
          rows={overview.events.map((e) => [
            event(e.slug, e.name),
            <span key="date" className="whitespace-nowrap">
              {formatCompactDate(e.startDate, locale)}
            </span>,
            t(e.role === "owner" ? "users.events.owner" : "users.events.organizer"),
            t(`editor:status.${e.status}`),
          ])}
        />
      </Section>

      <Section id="member-results" title={t("users.results.title")}>
        <MiniTable
          caption={t("users.results.title")}
          empty={t("users.results.empty")}
          head={[
            t("users.results.race"),
            t("users.results.date"),
            t("users.results.time"),
            t("users.results.rank"),
            t("users.results.source"),
          ]}
          rows={overview.results.map((r) => [
            <span key="race">
              {event(r.event.slug, r.event.name)}
              <span className="block text-ink-700 text-xs">
                {[r.course.name, distanceBesideName(r.course.name, r.course.distance, locale)]
                  .filter(Boolean)
                  .join(" · ")}
              </span>
            </span>,
            <span key="date" className="whitespace-nowrap">
              {formatCompactDate(r.event.date, locale)}
            </span>,
            r.status === "finished" && r.timeMs ? (
              <span key="time" className="tabular-nums">
                {formatRaceTime(Math.round(r.timeMs / 1000))}
              </span>
            ) : (
              t(`results:status.${r.status}`)
            ),
            r.rank ?? "—",
            t(`users.results.sources.${r.source}`),
          ])}
        />
      </Section>

      <Section id="member-orders" title={t("users.orders.title")}>
        {user.status === "deleted" ? null : (
          <p className="mb-3 text-ink-700 text-sm">{t("users.orders.credits", { count: overview.credits })}</p>
        )}
        <MiniTable
          caption={t("users.orders.title")}
          empty={t("users.orders.empty")}
          head={[
            t("users.orders.date"),
            t("users.orders.product"),
            t("users.orders.amount"),
            t("users.orders.status"),
            t("users.orders.receipt"),
          ]}
          rows={overview.orders.map((o) => [
            <span key="date" className="whitespace-nowrap">
              {compactDay(o.createdAt, locale)}
            </span>,
            t(`orders:products.${o.productId}`),
            <span key="amount" className="whitespace-nowrap tabular-nums">
              {formatMoneyCents(o.amountCents, locale, { fixed: true })}
            </span>,
            t(`orders:status.${o.status}`),
            o.receiptNumber ?? "—",
          ])}
        />
      </Section>
    </div>
  );
}
