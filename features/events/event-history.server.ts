/**
 * An event's history (what its editors read: changes, moderation, organiser validations), written
 * by the features that act on the event (decision 047: they call this, not the table), and read
 * across all events for the admin's event logs (features/logs).
 */
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { eventHistory } from "./events.tables.ts";

export type EventHistoryLine = Omit<typeof eventHistory.$inferInsert, "id">;

/** Adds a line to an event's history, in the caller's transaction. */
export async function recordEventHistory(tx: Executor, line: EventHistoryLine): Promise<void> {
  await tx.insert(eventHistory).values(line);
}

export type EventHistoryFilter = {
  /** Part of the event's name (accents and case ignored). */
  eventName?: string;
  /** Part of the member's name or e-mail address, or their id. */
  member?: string;
  type?: EventHistoryLine["type"];
  /** From this instant included, up to this one excluded. */
  from?: Date;
  to?: Date;
};

export type EventHistoryRow = {
  id: number;
  type: EventHistoryLine["type"];
  data: Record<string, unknown>;
  userId: number | null;
  createdAt: Date;
  event: { id: number; name: string; slug: string; startDate: string };
  member: { id: number; name: string } | null;
};

const folded = (value: string) =>
  `%${value
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")}%`;

/** Every event's history lines, newest first, with the event and the member who acted (the admin's event logs). */
export async function listEventHistory(
  db: Executor,
  filter: EventHistoryFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: EventHistoryRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (filter.eventName) conditions.push(sql`immutable_unaccent(lower(e.name)) LIKE ${folded(filter.eventName)}`);
  if (filter.member) {
    const id = /^\d{1,10}$/.test(filter.member) ? Number(filter.member) : null;
    conditions.push(
      id !== null && id <= 2_147_483_647
        ? sql`h.user_id = ${id}`
        : sql`(immutable_unaccent(lower(u.first_name || ' ' || u.last_name || ' ' || u.pseudo)) LIKE ${folded(filter.member)}
               OR lower(u.email) LIKE ${`%${filter.member.toLowerCase()}%`})`,
    );
  }
  if (filter.type) conditions.push(sql`h.type = ${filter.type}`);
  if (filter.from) conditions.push(sql`h.created_at >= ${filter.from.toISOString()}::timestamptz`);
  if (filter.to) conditions.push(sql`h.created_at < ${filter.to.toISOString()}::timestamptz`);
  const where = conditions.length ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;
  const found = await rows<{
    id: number;
    type: EventHistoryLine["type"];
    data: Record<string, unknown> | null;
    user_id: number | null;
    created_at: string | Date;
    event_id: number;
    name: string;
    slug: string;
    start_date: string | Date;
    first_name: string | null;
    last_name: string | null;
    pseudo: string | null;
    total: number;
  }>(
    db,
    sql`SELECT h.id, h.type, h.data, h.user_id, h.created_at, e.id AS event_id, e.name, e.slug, e.start_date,
               u.first_name, u.last_name, u.pseudo, count(*) OVER ()::int AS total
        FROM event_history h
        JOIN events e ON e.id = h.event_id
        LEFT JOIN users u ON u.id = h.user_id
        ${where}
        ORDER BY h.created_at DESC, h.id DESC
        LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
  let total = Number(found[0]?.total ?? 0);
  // A page past the end still says how many lines there are.
  if (found.length === 0 && page.offset > 0) {
    const [counted] = await rows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM event_history h JOIN events e ON e.id = h.event_id
          LEFT JOIN users u ON u.id = h.user_id ${where}`,
    );
    total = Number(counted?.n ?? 0);
  }
  return {
    total,
    rows: found.map((row) => {
      const name = [row.first_name, row.last_name].filter(Boolean).join(" ").trim() || row.pseudo || "";
      return {
        id: Number(row.id),
        type: row.type,
        data: row.data ?? {},
        userId: row.user_id,
        createdAt: new Date(row.created_at),
        event: {
          id: row.event_id,
          name: row.name,
          slug: row.slug,
          startDate: (row.start_date instanceof Date ? row.start_date.toISOString() : String(row.start_date)).slice(
            0,
            10,
          ),
        },
        member: row.user_id === null ? null : { id: row.user_id, name: name || `#${row.user_id}` },
      };
    }),
  };
}
