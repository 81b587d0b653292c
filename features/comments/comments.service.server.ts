/**
 * Comments (on events now; articles, videos and posters when they exist) and the encouragement
 * wall (targetType "wall" on an edition). One level of replies: a reply to a reply answers its
 * parent. Deleting is soft: a deleted comment with replies stays as a placeholder. A disabled
 * account's comments stay, without the author's name.
 */
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { isUniqueViolation, rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import type { CommentTarget } from "../../shared/constants.ts";
import { parisToday } from "../../shared/zoned-time.ts";
import { type Actor, eventAccess } from "../events/event-access.server.ts";
import { activeEventStart, eventLabels, seriesEditions } from "../events/event-reads.server.ts";
import { users } from "../identity/identity.tables.ts";
import {
  COMMENTS_PAGE_SIZE,
  type CommentInput,
  type CommentPage,
  type CommentView,
  type ReplyView,
  type ReportQueue,
  WALL_MAX,
  WALL_PAGE_SIZE,
} from "./comments.contract.ts";
import { commentReports, comments } from "./comments.tables.ts";

type CommentRow = typeof comments.$inferSelect;
type AuthorRow = {
  id: number;
  pseudo: string | null;
  firstName: string | null;
  lastName: string | null;
  slug: string | null;
  publicProfile: boolean;
  disabledAt: Date | null;
} | null;

/** Pseudo, else "Camille M.": a comment is public, a member's full name need not be. */
function authorName(user: NonNullable<AuthorRow>): string {
  if (user.pseudo) return user.pseudo;
  const initial = user.lastName?.trim().charAt(0);
  return [user.firstName?.trim(), initial ? `${initial.toUpperCase()}.` : ""].filter(Boolean).join(" ") || "—";
}

function view(row: CommentRow, author: AuthorRow): Omit<CommentView, "replies"> & { parentId: number | null } {
  const deleted = row.deletedAt !== null;
  const visibleAuthor = author && !author.disabledAt && !deleted ? author : null;
  return {
    id: row.id,
    targetType: row.targetType,
    targetId: row.targetId,
    parentId: row.parentId,
    author: visibleAuthor
      ? {
          id: visibleAuthor.id,
          name: authorName(visibleAuthor),
          profileSlug: visibleAuthor.publicProfile ? visibleAuthor.slug : null,
        }
      : null,
    body: deleted ? "" : row.body,
    rating: deleted ? null : row.rating,
    createdAt: row.createdAt.toISOString(),
    editedAt: row.updatedAt?.toISOString() ?? null,
    deleted,
    edition: null,
  };
}

const authorColumns = {
  id: users.id,
  pseudo: users.pseudo,
  firstName: users.firstName,
  lastName: users.lastName,
  slug: users.slug,
  publicProfile: users.publicProfile,
  disabledAt: users.disabledAt,
};

export function commentsService(db: Db, clock: () => Date) {
  /** The edition a comment target names (events and walls); others do not exist yet. */
  async function targetEvent(executor: Executor, type: CommentTarget, id: number) {
    if (type !== "event" && type !== "wall") throw new ApiError("ITEM_NOT_FOUND");
    const event = await activeEventStart(executor, id);
    if (!event) throw new ApiError("ITEM_NOT_FOUND");
    return event;
  }

  /** The active editions of the event's series (the event alone when it has none), by id. */
  async function editionsById(eventId: number) {
    const rows = await seriesEditions(db, eventId);
    return new Map(rows.map((r) => [r.id, r]));
  }

  async function withAuthor(id: number) {
    const [found] = await db
      .select({ comment: comments, author: authorColumns })
      .from(comments)
      .leftJoin(users, eq(users.id, comments.userId))
      .where(eq(comments.id, id))
      .limit(1);
    return found ?? null;
  }

  /** The author, the target event's owner and organisers, and admins. */
  async function mayDelete(actor: Actor, comment: CommentRow): Promise<boolean> {
    if (actor.role === "admin" || comment.userId === actor.id) return true;
    if (comment.targetType !== "event" && comment.targetType !== "wall") return false;
    const level = await eventAccess(db, actor, comment.targetId);
    return level === "owner" || level === "organizer" || level === "admin";
  }

  return {
    /** GET /api/comments/{type}/{id?}: newest first, replies (oldest first) under their comment. */
    async list(
      type: CommentTarget,
      targetId: number | undefined,
      page = 1,
      scope: "edition" | "series" = "edition",
    ): Promise<CommentPage> {
      if (targetId !== undefined && (type === "event" || type === "wall")) await targetEvent(db, type, targetId);
      const size = type === "wall" ? WALL_PAGE_SIZE : COMMENTS_PAGE_SIZE;
      // A series' comments: those of each of its active editions (ratings stay per edition).
      const editions =
        scope === "series" && type === "event" && targetId !== undefined ? await editionsById(targetId) : null;
      const targets = editions ? [...editions.keys()] : targetId === undefined ? null : [targetId];
      // Deleted comments show only while they hold replies.
      const shown = and(
        eq(comments.targetType, type),
        targets === null ? undefined : inArray(comments.targetId, targets),
        isNull(comments.parentId),
        sql`(${comments.deletedAt} IS NULL OR EXISTS (SELECT 1 FROM comments r WHERE r.parent_id = ${comments.id} AND r.deleted_at IS NULL))`,
      );
      const [[{ total }], top] = await Promise.all([
        db.select({ total: sql<number>`count(*)::int` }).from(comments).where(shown),
        db
          .select({ comment: comments, author: authorColumns })
          .from(comments)
          .leftJoin(users, eq(users.id, comments.userId))
          .where(shown)
          .orderBy(desc(comments.createdAt), desc(comments.id))
          .limit(size)
          .offset((page - 1) * size),
      ]);
      const ids = top.map((r) => r.comment.id);
      const replies = ids.length
        ? await db
            .select({ comment: comments, author: authorColumns })
            .from(comments)
            .leftJoin(users, eq(users.id, comments.userId))
            .where(and(inArray(comments.parentId, ids), isNull(comments.deletedAt)))
            .orderBy(asc(comments.createdAt), asc(comments.id))
        : [];
      return {
        comments: top.map(({ comment, author }) => {
          const { parentId: _parent, ...main } = view(comment, author);
          return {
            ...main,
            edition: editions?.get(comment.targetId) ?? null,
            replies: replies
              .filter((r) => r.comment.parentId === comment.id)
              .map((r) => view(r.comment, r.author) as ReplyView),
          };
        }),
        page,
        total,
        hasMore: page * size < total,
      };
    },

    /** POST /api/comment/{type}/{id}: a new comment or reply, or (commentId) the author's edit. */
    async post(user: Actor, type: CommentTarget, targetId: number, input: CommentInput) {
      const event = await targetEvent(db, type, targetId);
      if (type === "wall" && input.body.length > WALL_MAX) throw new ApiError("COMMENT_TOO_LONG");
      if (type === "wall" && input.parentId !== undefined) throw new ApiError("INVALID_FIELD", { field: "parentId" });
      // A review is for a race that was run; encouragements come before and during it.
      if (type === "event" && event.startDate > parisToday(clock())) throw new ApiError("EVENT_NOT_YET_HELD");
      const rating = type === "wall" ? null : (input.rating ?? null);

      if (input.commentId !== undefined) {
        const [existing] = await db.select().from(comments).where(eq(comments.id, input.commentId)).limit(1);
        if (!existing || existing.deletedAt || existing.targetType !== type || existing.targetId !== targetId) {
          throw new ApiError("ITEM_NOT_FOUND");
        }
        if (existing.userId !== user.id) throw new ApiError("FORBIDDEN");
        await db
          .update(comments)
          .set({ body: input.body, rating: input.rating === undefined ? existing.rating : rating, updatedAt: clock() })
          .where(eq(comments.id, existing.id));
        const found = await withAuthor(existing.id);
        return { status: 200 as const, comment: found ? view(found.comment, found.author) : null };
      }

      let parentId: number | null = null;
      if (input.parentId !== undefined) {
        const [parent] = await db.select().from(comments).where(eq(comments.id, input.parentId)).limit(1);
        if (!parent || parent.deletedAt || parent.targetType !== type || parent.targetId !== targetId) {
          throw new ApiError("ITEM_NOT_FOUND", { field: "parentId" });
        }
        // One level: answering a reply answers its comment.
        parentId = parent.parentId ?? parent.id;
      }
      const [created] = await db
        .insert(comments)
        .values({
          targetType: type,
          targetId,
          parentId,
          userId: user.id,
          body: input.body,
          rating: parentId === null ? rating : null,
          createdAt: clock(),
        })
        .returning({ id: comments.id });
      const found = await withAuthor(created.id);
      return { status: 201 as const, comment: found ? view(found.comment, found.author) : null };
    },

    /** DELETE /api/comment/{id}: by its author, the event's owner and organisers, admins. */
    async remove(actor: Actor, id: number): Promise<void> {
      const [comment] = await db.select().from(comments).where(eq(comments.id, id)).limit(1);
      if (!comment || comment.deletedAt) throw new ApiError("ITEM_NOT_FOUND");
      if (!(await mayDelete(actor, comment))) throw new ApiError("FORBIDDEN");
      await db.transaction(async (tx) => {
        await tx.update(comments).set({ deletedAt: clock(), deletedBy: actor.id }).where(eq(comments.id, id));
        // Reports of a deleted comment are settled.
        await tx
          .update(commentReports)
          .set({ resolvedAt: clock() })
          .where(and(eq(commentReports.commentId, id), isNull(commentReports.resolvedAt)));
      });
    },

    /** POST /api/comment/report/{id}: once per member per comment. */
    async report(userId: number, id: number, reason: string | undefined): Promise<void> {
      const [comment] = await db.select().from(comments).where(eq(comments.id, id)).limit(1);
      if (!comment || comment.deletedAt) throw new ApiError("ITEM_NOT_FOUND");
      try {
        await db.insert(commentReports).values({ commentId: id, userId, reason: reason ?? "", createdAt: clock() });
      } catch (error) {
        if (isUniqueViolation(error, "comment_reports_comment_user_idx")) throw new ApiError("ALREADY_REPORTED");
        throw error;
      }
    },

    /** Comments with an open report (the admin menu's count). */
    async reportedCount(): Promise<number> {
      const [row] = await rows<{ n: number }>(
        db,
        sql`SELECT count(DISTINCT comment_id)::int AS n FROM comment_reports WHERE resolved_at IS NULL`,
      );
      return Number(row?.n ?? 0);
    },

    /** GET /api/admin/comments: reported comments with open reports, most reported first. */
    async reportQueue(): Promise<ReportQueue> {
      const open = await rows<{ comment_id: number }>(
        db,
        sql`SELECT comment_id FROM comment_reports WHERE resolved_at IS NULL
            GROUP BY comment_id ORDER BY count(*) DESC, min(created_at) ASC LIMIT 100`,
      );
      const ids = open.map((r) => r.comment_id);
      if (!ids.length) return { items: [] };
      const [found, reports] = await Promise.all([
        db
          .select({ comment: comments, author: authorColumns })
          .from(comments)
          .leftJoin(users, eq(users.id, comments.userId))
          .where(inArray(comments.id, ids)),
        db
          .select()
          .from(commentReports)
          .where(and(inArray(commentReports.commentId, ids), isNull(commentReports.resolvedAt)))
          .orderBy(asc(commentReports.createdAt)),
      ]);
      // Comments on events and walls link to their event's page.
      const onEvent = (c: CommentRow) => c.targetType === "event" || c.targetType === "wall";
      const onEvents = found.filter((f) => onEvent(f.comment));
      const events = await eventLabels(
        db,
        onEvents.map((f) => f.comment.targetId),
      );
      const eventSlug = (c: CommentRow) => (onEvent(c) ? (events.get(c.targetId)?.slug ?? null) : null);
      return {
        items: ids.flatMap((id) => {
          const row = found.find((f) => f.comment.id === id);
          if (!row) return [];
          return [
            {
              comment: view(row.comment, row.author),
              reports: reports
                .filter((r) => r.commentId === id)
                .map((r) => ({ reason: r.reason, createdAt: r.createdAt.toISOString(), reporterId: r.userId })),
              eventSlug: eventSlug(row.comment),
            },
          ];
        }),
      };
    },

    /** POST /api/admin/comments: an admin dismisses a comment's reports or deletes it. */
    async resolve(admin: Actor, commentId: number, action: "dismiss" | "delete"): Promise<void> {
      const [comment] = await db.select().from(comments).where(eq(comments.id, commentId)).limit(1);
      if (!comment) throw new ApiError("ITEM_NOT_FOUND");
      await db.transaction(async (tx) => {
        if (action === "delete" && !comment.deletedAt) {
          await tx.update(comments).set({ deletedAt: clock(), deletedBy: admin.id }).where(eq(comments.id, commentId));
        }
        await tx
          .update(commentReports)
          .set({ resolvedAt: clock() })
          .where(and(eq(commentReports.commentId, commentId), isNull(commentReports.resolvedAt)));
      });
    },
  };
}
export type CommentsService = ReturnType<typeof commentsService>;

/**
 * The member is deleted (accounts' member data port, decision 048): what they wrote stays as a
 * former member's (the tables' foreign keys say so: ON DELETE SET NULL), their reports stay in the
 * queue without them, and the comments they removed no longer name them.
 */
export async function removeMemberComments(tx: Executor, userId: number): Promise<void> {
  await tx.update(comments).set({ userId: null }).where(eq(comments.userId, userId));
  await tx.update(commentReports).set({ userId: null }).where(eq(commentReports.userId, userId));
  await tx.update(comments).set({ deletedBy: null }).where(eq(comments.deletedBy, userId));
}
