/**
 * The admin's e-mail log (issue 28): every message Dossard sent or queued, its viewer (the HTML and
 * text re-rendered from the template and the stored parameters, secrets masked) and its resend.
 * GET /api/admin/email-logs, GET /api/admin/email-logs/{id}, POST /api/admin/email-logs/{id}/resend;
 * the same filter names in the page's address (/admin/journaux?tab=emails). Isomorphic.
 */
import { z } from "zod";
import { text } from "../../shared/input.ts";
import { adminDay } from "../admin/admin-period.ts";

export const MAIL_STATUSES = ["queued", "sent", "failed"] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];
export const EMAIL_LOGS_PAGE_SIZE = 50;

/** GET /api/admin/email-logs: every filter optional, newest first. */
export const emailLogsQuerySchema = z.object({
  recipient: text().trim().max(200).optional().describe("Part of the recipient's address"),
  template: z
    .string()
    .regex(/^[A-Za-z]{1,48}$/)
    .optional()
    .describe("A template's name (verifyEmail, eventModerated…)"),
  status: z.enum(MAIL_STATUSES).optional(),
  from: adminDay.optional().describe("Queued on or after this day, French time"),
  to: adminDay.optional().describe("Queued on or before this day, French time"),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type EmailLogsQuery = z.output<typeof emailLogsQuerySchema>;

export const emailLogEntrySchema = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  recipient: z.string(),
  userId: z.number().int().nullable(),
  template: z.string(),
  locale: z.string(),
  subject: z.string(),
  status: z.enum(MAIL_STATUSES),
  attempts: z.number().int(),
  error: z.string().nullable(),
  /** Dossard adds no tracking pixel and no redirected links: opens and clicks are never known. */
  tracking: z.literal("none"),
});
export type EmailLogEntry = z.infer<typeof emailLogEntrySchema>;

export const emailLogsResponseSchema = z.object({
  messages: z.array(emailLogEntrySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** The templates, for the filter. */
  templates: z.array(z.string()),
});
export type EmailLogsPage = z.infer<typeof emailLogsResponseSchema>;

export const MASKED_SECRETS = ["code", "link", "unsubscribeToken"] as const;

/** GET /api/admin/email-logs/{id}. */
export const emailViewSchema = z.object({
  message: emailLogEntrySchema,
  /** The message's HTML as the recipient got it, its secrets replaced by "••••••". */
  html: z.string(),
  text: z.string(),
  /** The secrets replaced (codes, reset links, unsubscribe links are never stored). */
  masked: z.array(z.enum(MASKED_SECRETS)),
  /** False when the message carried a secret that is gone: it cannot be sent again. */
  resendable: z.boolean(),
  /** The parameters it was rendered from (no secret among them). */
  params: z.record(z.string(), z.unknown()),
  /** Why it could not be rendered again (a template gone or changed since); null when it was. */
  renderError: z.string().nullable(),
});
export type EmailView = z.infer<typeof emailViewSchema>;

/** POST /api/admin/email-logs/{id}/resend: the new message, queued. */
export const emailResendSchema = z.object({ id: z.number().int(), status: z.enum(MAIL_STATUSES) });
