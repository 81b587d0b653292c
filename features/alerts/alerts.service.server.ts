/**
 * Alerts (issue 12): saved searches mailed as a weekly digest of new matching races, a reminder
 * the day before and on the day registration opens for a favourite event, and a mail to an
 * event's followers when it is cancelled or postponed. Every mail goes through the mail service's
 * queue, in the member's language, with a one-click unsubscribe link; `alert_deliveries` (unique
 * per member, kind and key) makes sure none goes twice, whatever the job queue retries.
 */
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { ALERT_KINDS, type AlertKind, type Locale } from "../../shared/constants.ts";
import { addIsoDays, formatLongDate } from "../../shared/dates.ts";
import { formatDistance } from "../../shared/format.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { parisToday } from "../../shared/zoned-time.ts";
import type { StatusChangeNotice } from "../editor/editor.service.server.ts";
import { users } from "../identity/identity.tables.ts";
import type { DigestRace } from "../mail/templates.server.ts";
import { searchQuerySchema } from "../search/search.contract.ts";
import type { SearchService } from "../search/search.service.server.ts";
import { hasSearchFilters, parseSearchParams, searchQueryString } from "../search/search-url.ts";
import {
  type Alerts,
  type CreateAlertBody,
  DIGEST_MAX_RACES,
  MAX_SAVED_SEARCHES,
  type SavedSearch,
} from "./alerts.contract.ts";
import { alertDeliveries, alertPreferences, savedSearches } from "./alerts.tables.ts";
import type { UnsubscribeTarget, UnsubscribeTokens } from "./unsubscribe-token.server.ts";

export const DIGEST_QUEUE = "alerts.digest";
export const REGISTRATION_QUEUE = "alerts.registration-opens";
export const EVENT_CHANGED_QUEUE = "alerts.event-changed";

type Mailer = {
  send(message: {
    to: string;
    userId?: number;
    template: string;
    locale: Locale;
    params: Record<string, unknown>;
    tx?: Executor;
  }): Promise<number>;
};
type Enqueue = (queue: string, payload: unknown, options?: { tx?: Executor }) => Promise<number>;

/** Fields of the search that only shape a page of results: an alert is about which races. */
const PRESENTATION = ["sort", "page", "perPage", "literal"] as const;

/** The search page's query string made canonical by the search's own parser; junk is dropped. */
export function normaliseAlertQuery(raw: string): string {
  const parsed = parseSearchParams(raw.replace(/^[^?]*\?/, ""), searchQuerySchema.shape);
  const query = { ...parsed.query };
  for (const field of PRESENTATION) delete query[field];
  return hasSearchFilters(query) ? searchQueryString(query) : "";
}

const toLocale = (value: string | null | undefined): Locale => (value === "en" ? "en" : "fr");

function savedSearchOut(row: typeof savedSearches.$inferSelect): SavedSearch {
  return {
    id: row.id,
    query: row.query,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
    lastSentAt: row.lastSentAt ? row.lastSentAt.toISOString() : null,
  };
}

/** "samedi 14 juin 2026 à 9 h 05" / "Saturday 14 June 2026 at 9:05", in Paris time. */
export function formatOpening(at: Date, locale: Locale): string {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/Paris",
    hour: "numeric",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const hour = Number(parts.find((p) => p.type === "hour")?.value ?? 0);
  const minute = parts.find((p) => p.type === "minute")?.value ?? "00";
  const day = formatLongDate(parisToday(at), locale);
  return locale === "en" ? `${day} at ${hour}:${minute}` : `${day} à ${hour}\u00a0h\u00a0${minute}`;
}

type Recipient = { id: number; email: string; locale: string; first_name: string };

export function alertsService(
  db: Db,
  clock: () => Date,
  deps: {
    mail: Mailer;
    search: Pick<SearchService, "publishedSince">;
    tokens: UnsubscribeTokens;
    publicOrigin: string;
    enqueue?: Enqueue;
  },
) {
  const origin = deps.publicOrigin.replace(/\/+$/, "");
  const eventUrl = (slug: string, locale: Locale) => `${origin}${pagePath("event", locale, { slug })}`;

  async function mutedKinds(userId: number, tx: Executor = db): Promise<AlertKind[]> {
    const [row] = await tx.select().from(alertPreferences).where(eq(alertPreferences.userId, userId));
    return (row?.muted ?? []).filter((kind): kind is AlertKind => (ALERT_KINDS as readonly string[]).includes(kind));
  }

  async function setMuted(userId: number, muted: AlertKind[], tx: Executor = db): Promise<AlertKind[]> {
    const kinds = ALERT_KINDS.filter((kind) => muted.includes(kind));
    await tx
      .insert(alertPreferences)
      .values({ userId, muted: kinds, updatedAt: clock() })
      .onConflictDoUpdate({ target: alertPreferences.userId, set: { muted: kinds, updatedAt: clock() } });
    return kinds;
  }

  /** Members who get mails: active, address verified, this kind not turned off. */
  const mailable = (kind: AlertKind) =>
    sql`u.disabled_at IS NULL AND u.email_status = 'verified' AND NOT EXISTS (
      SELECT 1 FROM alert_preferences p WHERE p.user_id = u.id AND ${kind} = ANY(p.muted))`;

  /**
   * Records the delivery (member, kind, key) and queues its mail in one transaction: a delivery
   * already recorded sends nothing. Returns whether a mail was queued.
   */
  async function deliverOnce(
    delivery: { userId: number; kind: AlertKind; key: string; eventId?: number; savedSearchId?: number },
    mail: (tx: Executor) => Promise<unknown>,
  ): Promise<boolean> {
    return db.transaction(async (tx) => {
      const inserted = await tx
        .insert(alertDeliveries)
        .values({
          userId: delivery.userId,
          kind: delivery.kind,
          key: delivery.key,
          eventId: delivery.eventId ?? null,
          savedSearchId: delivery.savedSearchId ?? null,
          createdAt: clock(),
        })
        .onConflictDoNothing()
        .returning({ id: alertDeliveries.id });
      if (inserted.length === 0) return false;
      await mail(tx);
      return true;
    });
  }

  function tokenFor(target: UnsubscribeTarget): string {
    return deps.tokens.sign(target);
  }

  return {
    /** GET /api/user/alerts */
    async list(userId: number): Promise<Alerts> {
      const searches = await db
        .select()
        .from(savedSearches)
        .where(eq(savedSearches.userId, userId))
        .orderBy(asc(savedSearches.createdAt), asc(savedSearches.id));
      return { searches: searches.map(savedSearchOut), muted: await mutedKinds(userId), max: MAX_SAVED_SEARCHES };
    },

    /**
     * POST /api/user/alerts: saves a search; the same search twice gives back the first one
     * (200, `created` false). At most MAX_SAVED_SEARCHES per member.
     */
    async create(
      userId: number,
      body: CreateAlertBody,
      locale: Locale,
    ): Promise<{ search: SavedSearch; created: boolean }> {
      const query = normaliseAlertQuery(body.query);
      if (!query) throw new ApiError("ALERT_NEEDS_FILTER", { field: "query" });
      const label = body.label?.replace(/\s+/g, " ").trim() || query;
      return db.transaction(async (tx) => {
        // One member's saves are counted one at a time: parallel requests cannot pass the limit.
        await tx.execute(sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`);
        const [existing] = await tx
          .select()
          .from(savedSearches)
          .where(and(eq(savedSearches.userId, userId), eq(savedSearches.query, query)));
        if (existing) return { search: savedSearchOut(existing), created: false };
        const [{ n }] = await tx.select({ n: count() }).from(savedSearches).where(eq(savedSearches.userId, userId));
        if (n >= MAX_SAVED_SEARCHES) throw new ApiError("ALERT_LIMIT_REACHED");
        const [row] = await tx
          .insert(savedSearches)
          .values({ userId, query, label, locale, createdAt: clock() })
          .returning();
        return { search: savedSearchOut(row), created: true };
      });
    },

    /** DELETE /api/user/alerts/{id}: only the member's own. */
    async remove(userId: number, id: number): Promise<void> {
      const deleted = await db
        .delete(savedSearches)
        .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)))
        .returning({ id: savedSearches.id });
      if (deleted.length === 0) throw new ApiError("ITEM_NOT_FOUND");
    },

    /** PUT /api/user/alerts/preferences */
    async setPreferences(userId: number, muted: AlertKind[]): Promise<{ muted: AlertKind[] }> {
      return { muted: await setMuted(userId, muted) };
    },

    mutedKinds,

    /** The member is deleted (accounts' member data port, decision 048): their alerts and what was sent go. */
    async removeMember(userId: number, tx: Executor): Promise<void> {
      await tx.delete(savedSearches).where(eq(savedSearches.userId, userId));
      await tx.delete(alertDeliveries).where(eq(alertDeliveries.userId, userId));
      await tx.delete(alertPreferences).where(eq(alertPreferences.userId, userId));
    },

    /** GDPR export (accounts' member data port): the member's saved searches and muted kinds as stored. */
    async exportMember(userId: number) {
      const searches = await db
        .select()
        .from(savedSearches)
        .where(eq(savedSearches.userId, userId))
        .orderBy(savedSearches.id);
      const [preferences] = await db.select().from(alertPreferences).where(eq(alertPreferences.userId, userId));
      return {
        savedSearches: searches.map((s) => ({
          label: s.label,
          query: s.query,
          createdAt: s.createdAt.toISOString(),
          lastSentAt: s.lastSentAt?.toISOString() ?? null,
        })),
        mutedKinds: preferences?.muted ?? [],
      };
    },

    /** The unsubscribe token of a member's alert (mails, tests). */
    tokenFor,

    /** What an unsubscribe link turns off, for its confirmation page; null for a bad token. */
    async describeToken(token: string | null | undefined): Promise<{ kind: AlertKind; label: string | null } | null> {
      const target = deps.tokens.verify(token);
      if (!target) return null;
      if (!target.savedSearchId) return { kind: target.kind, label: null };
      const [row] = await db
        .select({ label: savedSearches.label })
        .from(savedSearches)
        .where(and(eq(savedSearches.id, target.savedSearchId), eq(savedSearches.userId, target.userId)));
      return { kind: target.kind, label: row?.label ?? null };
    },

    /**
     * The one-click unsubscribe: a saved search's link deletes that search, another alert's link
     * turns its kind off. Idempotent; throws INVALID_TOKEN for a token that is not ours.
     */
    async unsubscribe(token: string | null | undefined): Promise<UnsubscribeTarget> {
      const target = deps.tokens.verify(token);
      if (!target) throw new ApiError("INVALID_TOKEN");
      if (target.savedSearchId) {
        await db
          .delete(savedSearches)
          .where(and(eq(savedSearches.id, target.savedSearchId), eq(savedSearches.userId, target.userId)));
        return target;
      }
      await db.transaction(async (tx) => {
        const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, target.userId));
        if (!user) return;
        const muted = await mutedKinds(target.userId, tx);
        if (!muted.includes(target.kind)) await setMuted(target.userId, [...muted, target.kind], tx);
      });
      return target;
    },

    /** The GDPR export's part: saved searches and which mails are off. */
    async exportFor(userId: number) {
      const searches = await db.select().from(savedSearches).where(eq(savedSearches.userId, userId));
      return {
        savedSearches: searches.map(savedSearchOut),
        preferences: { muted: await mutedKinds(userId) },
      };
    },

    /**
     * The weekly digest: for each saved search, the races published since its last mail (or its
     * creation) that match it; no mail when there is none. Returns how many mails were queued.
     */
    async sendDigests(): Promise<number> {
      const now = clock();
      const runDay = parisToday(now);
      const list = await rows<Recipient & { search_id: number; query: string; label: string; since: string }>(
        db,
        sql`SELECT s.id AS search_id, s.query, s.label, coalesce(s.last_sent_at, s.created_at) AS since,
              u.id, u.email, u.locale, u.first_name
            FROM saved_searches s JOIN users u ON u.id = s.user_id
            WHERE ${mailable("search_digest")}
            ORDER BY s.id`,
      );
      let sent = 0;
      for (const row of list) {
        const locale = toLocale(row.locale);
        const query = parseSearchParams(row.query, searchQuerySchema.shape).query;
        const found = await deps.search.publishedSince(query, new Date(row.since), DIGEST_MAX_RACES);
        if (found.total === 0) continue;
        const home = `${origin}${pagePath("home", locale)}`;
        const races: DigestRace[] = found.items.map((item) => ({
          name: item.name,
          date: formatLongDate(item.startDate, locale),
          // "Annecy (Haute-Savoie)", but "Paris" alone.
          place:
            item.departmentName && item.departmentName !== item.city
              ? `${item.city} (${item.departmentName})`
              : (item.city ?? ""),
          distances: [...new Set(item.distances)].map((d) => formatDistance(d, locale)).join(", "),
          url: eventUrl(item.slug, locale),
        }));
        const queued = await deliverOnce(
          {
            userId: row.id,
            kind: "search_digest",
            key: `search:${row.search_id}:${runDay}`,
            savedSearchId: row.search_id,
          },
          async (tx) => {
            await deps.mail.send({
              tx,
              to: row.email,
              userId: row.id,
              template: "searchDigest",
              locale,
              params: {
                firstName: row.first_name,
                label: row.label,
                count: found.total,
                races,
                searchUrl: `${home}?${row.query}`,
                manageUrl: `${origin}${pagePath("alerts", locale)}`,
                unsubscribeToken: tokenFor({ userId: row.id, kind: "search_digest", savedSearchId: row.search_id }),
              },
            });
            await tx.update(savedSearches).set({ lastSentAt: now }).where(eq(savedSearches.id, row.search_id));
          },
        );
        if (queued) sent++;
      }
      return sent;
    },

    /**
     * The daily reminder: favourite events whose registration opens tomorrow or today (Paris
     * days). Returns how many mails were queued.
     */
    async sendRegistrationReminders(): Promise<number> {
      const now = clock();
      const today = parisToday(now);
      const tomorrow = addIsoDays(today, 1);
      // A margin around the two days; the exact Paris day is decided below.
      const from = new Date(now.getTime() - 2 * 86_400_000).toISOString();
      const to = new Date(now.getTime() + 3 * 86_400_000).toISOString();
      const list = await rows<Recipient & { event_id: number; slug: string; name: string; opens_at: string }>(
        db,
        sql`SELECT e.id AS event_id, e.slug, e.name, e.registration_opens_at AS opens_at,
              u.id, u.email, u.locale, u.first_name
            FROM favorites f JOIN events e ON e.id = f.event_id JOIN users u ON u.id = f.user_id
            WHERE e.status = 'active' AND NOT e.cancelled
              AND e.registration_opens_at BETWEEN ${from}::timestamptz AND ${to}::timestamptz
              AND ${mailable("registration_opens")}
            ORDER BY e.id, u.id`,
      );
      let sent = 0;
      for (const row of list) {
        const opensAt = new Date(row.opens_at);
        const day = parisToday(opensAt);
        const when = day === today ? "today" : day === tomorrow ? "tomorrow" : null;
        if (!when) continue;
        const locale = toLocale(row.locale);
        const queued = await deliverOnce(
          {
            userId: row.id,
            kind: "registration_opens",
            key: `registration:${row.event_id}:${day}:${when}`,
            eventId: row.event_id,
          },
          (tx) =>
            deps.mail.send({
              tx,
              to: row.email,
              userId: row.id,
              template: "registrationOpens",
              locale,
              params: {
                firstName: row.first_name,
                eventName: row.name,
                when,
                opensAt: formatOpening(opensAt, locale),
                eventUrl: eventUrl(row.slug, locale),
                unsubscribeToken: tokenFor({ userId: row.id, kind: "registration_opens" }),
              },
            }),
        );
        if (queued) sent++;
      }
      return sent;
    },

    /** Called by the editor in the change's transaction: only queues the followers' job. */
    async statusChanged(tx: Executor, notice: StatusChangeNotice): Promise<void> {
      await deps.enqueue?.(
        EVENT_CHANGED_QUEUE,
        { eventId: notice.eventId, change: notice.change, at: notice.at.toISOString() },
        { tx },
      );
    },

    /** The job: mails each follower of the event once for this change. */
    async notifyFollowers(payload: {
      eventId: number;
      change: "cancelled" | "postponed";
      at: string;
    }): Promise<number> {
      const list = await rows<Recipient & { slug: string; name: string; start_date: string }>(
        db,
        sql`SELECT e.slug, e.name, e.start_date::text AS start_date, u.id, u.email, u.locale, u.first_name
            FROM favorites f JOIN events e ON e.id = f.event_id JOIN users u ON u.id = f.user_id
            WHERE f.event_id = ${payload.eventId} AND ${mailable("event_changed")}
            ORDER BY u.id`,
      );
      let sent = 0;
      for (const row of list) {
        const locale = toLocale(row.locale);
        const queued = await deliverOnce(
          {
            userId: row.id,
            kind: "event_changed",
            key: `event:${payload.eventId}:${payload.change}:${payload.at}`,
            eventId: payload.eventId,
          },
          (tx) =>
            deps.mail.send({
              tx,
              to: row.email,
              userId: row.id,
              template: "eventChanged",
              locale,
              params: {
                firstName: row.first_name,
                eventName: row.name,
                change: payload.change,
                ...(payload.change === "postponed" ? { newDate: formatLongDate(row.start_date, locale) } : {}),
                eventUrl: eventUrl(row.slug, locale),
                unsubscribeToken: tokenFor({ userId: row.id, kind: "event_changed" }),
              },
            }),
        );
        if (queued) sent++;
      }
      return sent;
    },
  };
}
export type AlertsService = ReturnType<typeof alertsService>;
