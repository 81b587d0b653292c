import { z } from "zod";
import type { ErrorCode } from "../../shared/api-error.ts";
import { COMMENT_TARGETS } from "../../shared/constants.ts";
import { numeric, rowId, scoreSchema, text } from "../../shared/input.ts";

const code = (c: ErrorCode) => ({ message: c });

/** Longest comment, in characters (the textarea carries it as maxlength). */
export const COMMENT_MAX = 2000;
/** Longest encouragement on the wall: a cheer, not a review. */
export const WALL_MAX = 140;
/** Top-level comments per page (their replies come with them). */
export const COMMENTS_PAGE_SIZE = 10;
/** Wall messages per page. */
export const WALL_PAGE_SIZE = 30;
export const REPORT_REASON_MAX = 500;

export const commentTargetSchema = z.enum(COMMENT_TARGETS);

/**
 * Plain text only: tags are removed (never rendered as HTML anyway), control characters other than
 * line breaks and tabs dropped, Windows line ends made "\n", runs of blank lines cut to one.
 */
export function sanitizeCommentText(value: string): string {
  return (
    value
      .replace(/\r\n?/g, "\n")
      .replace(/<\/?[a-z!][^<>]*>/gi, "")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to remove them.
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
      .replace(/[ \t]+\n/g, "\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim()
  );
}

const commentText = (max: number) =>
  text(code("FIELD_REQUIRED"))
    .max(max * 2, code("INVALID_FIELD"))
    .transform(sanitizeCommentText)
    .pipe(z.string().min(1, code("FIELD_REQUIRED")).max(max, code("COMMENT_TOO_LONG")));

/**
 * POST /api/comment/{type}/{id}: a new comment (a reply with parentId), or with commentId the
 * author's edit of their own comment. The wall's messages are checked against WALL_MAX by the service.
 */
export const commentBodySchema = z.object({
  body: commentText(COMMENT_MAX),
  parentId: numeric.pipe(rowId).optional(),
  rating: z.union([scoreSchema, z.null()]).optional(),
  commentId: numeric.pipe(rowId).optional(),
});
export type CommentBody = z.input<typeof commentBodySchema>;
export type CommentInput = z.output<typeof commentBodySchema>;

export const reportBodySchema = z.object({
  reason: text()
    .trim()
    .max(REPORT_REASON_MAX, code("INVALID_FIELD"))
    .transform((v) => sanitizeCommentText(v))
    .optional(),
});

export const COMMENT_SCOPES = ["edition", "series"] as const;

export const commentsQuerySchema = z.object({
  page: numeric.pipe(z.number().int().min(1).max(10_000)).optional(),
  /**
   * For type "event": "series" lists the comments of every edition of the event's series (its
   * event group), each with the edition it was written for; "edition" (the default) this one only.
   */
  scope: z.enum(COMMENT_SCOPES, code("INVALID_FIELD")).optional(),
});

const authorSchema = z.object({
  id: z.number().int(),
  /** Pseudo, else first name and initial. */
  name: z.string(),
  /** The public profile's slug, when the member has one. */
  profileSlug: z.string().nullable(),
});

const commentFields = {
  id: z.number().int(),
  targetType: commentTargetSchema,
  targetId: z.number().int(),
  /** Null when the author's account was disabled: shown without a name. */
  author: authorSchema.nullable(),
  /** Empty when deleted (kept in the list only to hold its replies). */
  body: z.string(),
  rating: z.number().int().nullable(),
  createdAt: z.string(),
  /** Set when the author edited it. */
  editedAt: z.string().nullable(),
  deleted: z.boolean(),
  /** The edition it was written for, in a series' list (scope=series); otherwise null. */
  edition: z.object({ id: z.number().int(), slug: z.string(), startDate: z.string() }).nullable(),
};

export const replySchema = z.object({ ...commentFields, parentId: z.number().int() });
export const commentSchema = z.object({ ...commentFields, replies: z.array(replySchema) });
export type CommentView = z.infer<typeof commentSchema>;
export type ReplyView = z.infer<typeof replySchema>;

export const commentPageSchema = z.object({
  comments: z.array(commentSchema),
  page: z.number().int(),
  /** Top-level comments in all (deleted ones without replies not counted). */
  total: z.number().int(),
  hasMore: z.boolean(),
});
export type CommentPage = z.infer<typeof commentPageSchema>;

export const reportedCommentSchema = z.object({
  comment: replySchema.extend({ parentId: z.number().int().nullable() }),
  reports: z.array(z.object({ reason: z.string(), createdAt: z.string(), reporterId: z.number().int().nullable() })),
  /** Where the comment stands: the event's slug when it is on an event or its wall. */
  eventSlug: z.string().nullable(),
});
export const reportQueueSchema = z.object({ items: z.array(reportedCommentSchema) });
export type ReportQueue = z.infer<typeof reportQueueSchema>;

export const resolveReportBodySchema = z.object({
  commentId: numeric.pipe(rowId),
  /** dismiss: the comment stays, its reports are closed; delete: it goes, reports closed too. */
  action: z.enum(["dismiss", "delete"]),
});
