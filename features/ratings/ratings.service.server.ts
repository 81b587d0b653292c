/**
 * Members' ratings of editions. One rating per member per edition (editable), only once the edition
 * has started (Europe/Paris). The edition's aggregate (events.rating_count, events.rating_average) is
 * recomputed from the ratings table in the rating's own transaction, after locking the event row
 * (SELECT … FOR UPDATE): two members rating at once are serialised, so the figures stay exact.
 * Ratings of disabled accounts never count.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { RATING_CRITERIA } from "../../shared/constants.ts";
import { parisToday } from "../../shared/zoned-time.ts";
import { memberCommentCount, memberComments } from "../comments/comment-reads.server.ts";
import { activeEventStart, eventLabels } from "../events/event-reads.server.ts";
import type { MemberEventEngagement, OwnRating, RateInput, RatingSummary } from "./ratings.contract.ts";
import { ratings } from "./ratings.tables.ts";

type Score = number | null;
type RatingRow = typeof ratings.$inferSelect;

const ownRating = (row: RatingRow): OwnRating => ({
  overall: row.overall,
  course: row.course,
  organisation: row.organisation,
  atmosphere: row.atmosphere,
  value: row.value,
  difficulty: row.difficulty,
  updatedAt: row.updatedAt.toISOString(),
});

/** Averages kept to two decimals: what pages and JSON-LD show. */
const round2 = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);

/**
 * Locks the event row, then writes the count and average of its counted ratings (members not
 * disabled) from the ratings table. Call inside the transaction that changed the ratings.
 */
export async function recomputeEventRating(tx: Executor, eventId: number): Promise<void> {
  await tx.execute(sql`SELECT id FROM events WHERE id = ${eventId} FOR UPDATE`);
  await tx.execute(sql`
    UPDATE events SET
      rating_count = agg.n,
      rating_average = agg.avg
    FROM (
      SELECT count(*)::int AS n, round(avg(r.overall)::numeric, 2)::float8 AS avg
      FROM ratings r JOIN users u ON u.id = r.user_id
      WHERE r.event_id = ${eventId} AND u.disabled_at IS NULL
    ) agg
    WHERE events.id = ${eventId}`);
}

/** The events a member rated: their aggregate changes when the member's account is disabled. */
export async function recomputeRatingsOfMember(tx: Executor, userId: number): Promise<number[]> {
  const rated = await tx
    .select({ eventId: ratings.eventId })
    .from(ratings)
    .where(eq(ratings.userId, userId))
    .orderBy(ratings.eventId);
  // In id order: two transactions locking the same events never wait on each other in a circle.
  for (const { eventId } of rated) await recomputeEventRating(tx, eventId);
  return rated.map((r) => r.eventId);
}

/**
 * The member is deleted (accounts' member data port, decision 048): their ratings go, and the
 * editions they rated are counted again without them.
 */
export async function removeMemberRatings(tx: Executor, userId: number): Promise<void> {
  const rated = await tx.delete(ratings).where(eq(ratings.userId, userId)).returning({ eventId: ratings.eventId });
  const events = [...new Set(rated.map((r) => r.eventId))].sort((a, b) => a - b);
  for (const eventId of events) await recomputeEventRating(tx, eventId);
}

/** GET /api/user/action/{id} (features/engagement): the member's rating and comment count on an event. */
export async function memberEventEngagement(
  db: Executor,
  userId: number,
  eventId: number,
): Promise<MemberEventEngagement> {
  const [[rating], commentCount] = await Promise.all([
    db
      .select()
      .from(ratings)
      .where(and(eq(ratings.userId, userId), eq(ratings.eventId, eventId)))
      .limit(1),
    memberCommentCount(db, userId, eventId),
  ]);
  return { rating: rating ? ownRating(rating) : null, commentCount };
}

export function ratingsService(db: Db, clock: () => Date) {
  const hasStarted = (startDate: string) => startDate <= parisToday(clock());

  async function mine(userId: number, eventId: number): Promise<OwnRating | null> {
    const [row] = await db
      .select()
      .from(ratings)
      .where(and(eq(ratings.userId, userId), eq(ratings.eventId, eventId)))
      .limit(1);
    return row ? ownRating(row) : null;
  }

  async function summary(eventId: number, viewerId?: number): Promise<RatingSummary> {
    const event = await activeEventStart(db, eventId);
    if (!event) throw new ApiError("ITEM_NOT_FOUND");
    const criteria = RATING_CRITERIA.map(
      (c) => sql`avg(r.${sql.identifier(c)})::float8 AS ${sql.identifier(`${c}_avg`)},
        count(r.${sql.identifier(c)})::int AS ${sql.identifier(`${c}_n`)}`,
    );
    const [agg] = await rows<Record<string, number | null>>(
      db,
      sql`SELECT count(*)::int AS n, avg(r.overall)::float8 AS avg,
        count(*) FILTER (WHERE r.overall = 1)::int AS s1, count(*) FILTER (WHERE r.overall = 2)::int AS s2,
        count(*) FILTER (WHERE r.overall = 3)::int AS s3, count(*) FILTER (WHERE r.overall = 4)::int AS s4,
        count(*) FILTER (WHERE r.overall = 5)::int AS s5, ${sql.join(criteria, sql`, `)}
      FROM ratings r JOIN users u ON u.id = r.user_id
      WHERE r.event_id = ${eventId} AND u.disabled_at IS NULL`,
    );
    const num = (key: string) => Number(agg[key] ?? 0);
    const avg = (key: string) => (agg[key] === null || agg[key] === undefined ? null : round2(Number(agg[key])));
    const answer: RatingSummary = {
      eventId,
      average: avg("avg"),
      count: num("n"),
      distribution: [num("s1"), num("s2"), num("s3"), num("s4"), num("s5")],
      criteria: Object.fromEntries(
        RATING_CRITERIA.map((c) => [c, { average: avg(`${c}_avg`), count: num(`${c}_n`) }]),
      ) as RatingSummary["criteria"],
      open: hasStarted(event.startDate),
    };
    if (viewerId !== undefined) answer.mine = await mine(viewerId, eventId);
    return answer;
  }

  return {
    summary,
    mine,

    /** POST /api/rating: the member's rating of an edition, created or replaced. */
    async rate(userId: number, body: RateInput): Promise<RatingSummary> {
      await db.transaction(async (tx) => {
        // The lock serialises every rating of this edition until the aggregate is written.
        const event = await activeEventStart(tx, body.eventId, { forUpdate: true });
        if (!event) throw new ApiError("ITEM_NOT_FOUND");
        if (!hasStarted(event.startDate)) throw new ApiError("EVENT_NOT_YET_HELD");
        const scores: Record<(typeof RATING_CRITERIA)[number], Score> = {
          course: body.course ?? null,
          organisation: body.organisation ?? null,
          atmosphere: body.atmosphere ?? null,
          value: body.value ?? null,
          difficulty: body.difficulty ?? null,
        };
        const now = clock();
        await tx
          .insert(ratings)
          .values({ userId, eventId: event.id, overall: body.overall, ...scores, createdAt: now, updatedAt: now })
          .onConflictDoUpdate({
            target: [ratings.userId, ratings.eventId],
            set: { overall: body.overall, ...scores, updatedAt: now },
          });
        await recomputeEventRating(tx, event.id);
      });
      return summary(body.eventId, userId);
    },
  };
}
export type RatingsService = ReturnType<typeof ratingsService>;

/** GDPR export (accounts.exportData): the member's ratings and comments, deleted ones included. */
export async function memberContributions(db: Executor, userId: number) {
  const [ratingRows, comments] = await Promise.all([
    db.select().from(ratings).where(eq(ratings.userId, userId)).orderBy(ratings.id),
    memberComments(db, userId),
  ]);
  const events = await eventLabels(
    db,
    ratingRows.map((rating) => rating.eventId),
  );
  return {
    ratings: ratingRows.flatMap((rating) => {
      const event = events.get(rating.eventId);
      if (!event) return [];
      return [
        {
          event: { id: rating.eventId, slug: event.slug, name: event.name },
          ...ownRating(rating),
          createdAt: rating.createdAt.toISOString(),
        },
      ];
    }),
    comments,
  };
}
