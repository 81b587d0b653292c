import { index, integer, pgEnum, pgTable, serial, smallint, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { COMMENT_TARGETS } from "../../shared/constants.ts";
import { users } from "../identity/identity.tables.ts";

export const commentTarget = pgEnum("comment_target", COMMENT_TARGETS);

/**
 * Comments on events (and later articles, videos, posters: `targetType`), one level of replies
 * (`parentId`), and the encouragement wall's short messages (`targetType` "wall", on an edition).
 */
export const comments = pgTable(
  "comments",
  {
    id: serial("id").primaryKey(),
    targetType: commentTarget("target_type").notNull(),
    targetId: integer("target_id").notNull(),
    /** The comment this one answers (one level: a reply to a reply answers its parent). */
    parentId: integer("parent_id"),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    /** An optional 1–5 rating given with the comment. */
    rating: smallint("rating"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
    /** Deleted by its author, the event's organisers or an admin: kept for replies, not shown. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    deletedBy: integer("deleted_by"),
  },
  (t) => [
    index("comments_target_idx").on(t.targetType, t.targetId, t.createdAt),
    index("comments_parent_idx").on(t.parentId),
    index("comments_user_idx").on(t.userId),
  ],
);

/** A member's report of an abusive comment: the admin area's moderation queue. */
export const commentReports = pgTable(
  "comment_reports",
  {
    id: serial("id").primaryKey(),
    commentId: integer("comment_id")
      .notNull()
      .references(() => comments.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    reason: text("reason").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("comment_reports_comment_user_idx").on(t.commentId, t.userId)],
);
