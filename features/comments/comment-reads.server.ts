/**
 * What other features ask of the comments (decision 047): a member's comment count on an edition
 * (GET /api/user/action/{id}, through ratings) and a member's comments for the GDPR export. The
 * comments' tables are read here and in comments.service.server.ts only (community excepted,
 * decision 029).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { comments } from "./comments.tables.ts";

/** The member's comments on an edition and on its wall that are not deleted. */
export async function memberCommentCount(db: Executor, userId: number, eventId: number): Promise<number> {
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(comments)
    .where(
      and(
        eq(comments.userId, userId),
        eq(comments.targetId, eventId),
        sql`${comments.targetType} IN ('event', 'wall')`,
        sql`${comments.deletedAt} IS NULL`,
      ),
    );
  return count?.n ?? 0;
}

/** GDPR export (accounts.exportData): the member's comments, deleted ones included, oldest first. */
export async function memberComments(db: Executor, userId: number) {
  const found = await db.select().from(comments).where(eq(comments.userId, userId)).orderBy(comments.id);
  return found.map((c) => ({
    id: c.id,
    targetType: c.targetType,
    targetId: c.targetId,
    parentId: c.parentId,
    body: c.body,
    rating: c.rating,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt?.toISOString() ?? null,
    deletedAt: c.deletedAt?.toISOString() ?? null,
  }));
}
