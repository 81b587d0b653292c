/**
 * The admin's e-mail log: the messages of mail_messages with their filters, one message shown
 * again as its recipient got it (templates.server.ts' renderMailPreview: secrets masked, never
 * stored), and its resend — the same template, parameters and recipient queued again through the
 * mail service as a new message. A message that carried a secret (a code, a reset link, an
 * unsubscribe link) cannot be sent again: the secret is gone, and a new one is the member's to ask.
 */
import { and, count, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import type { Locale } from "../../shared/constants.ts";
import { periodEnd, periodStart } from "../admin/admin-period.ts";
import type { SendMailInput } from "./mail.service.server.ts";
import { mailMessages } from "./mail.tables.ts";
import {
  EMAIL_LOGS_PAGE_SIZE,
  type EmailLogEntry,
  type EmailLogsPage,
  type EmailLogsQuery,
  type EmailView,
} from "./mail-log.contract.ts";
import { MAIL_TEMPLATES, renderMailPreview, templateSecrets } from "./templates.server.ts";

type MessageRow = typeof mailMessages.$inferSelect;

export type MailLogDeps = {
  /** The mail service's send (mail.service.server.ts): records the message and queues its delivery. */
  send: (input: Pick<SendMailInput, "to" | "template" | "locale" | "params"> & { userId?: number }) => Promise<number>;
  publicUrl: string;
};

function entry(row: MessageRow): EmailLogEntry {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    recipient: row.recipient,
    userId: row.userId,
    template: row.template,
    locale: row.locale,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    error: row.error,
    tracking: "none",
  };
}

export function mailLogService(db: Db, deps: MailLogDeps) {
  async function find(id: number): Promise<MessageRow> {
    const [row] = await db.select().from(mailMessages).where(eq(mailMessages.id, id));
    if (!row) throw new ApiError("NOT_FOUND");
    return row;
  }

  return {
    /** GET /api/admin/email-logs. */
    async list(query: EmailLogsQuery): Promise<EmailLogsPage> {
      const pageSize = EMAIL_LOGS_PAGE_SIZE;
      const conditions: SQL[] = [];
      if (query.recipient) {
        conditions.push(sql`lower(${mailMessages.recipient}) LIKE ${`%${query.recipient.toLowerCase()}%`}`);
      }
      if (query.template) conditions.push(eq(mailMessages.template, query.template));
      if (query.status) conditions.push(eq(mailMessages.status, query.status));
      const from = periodStart(query.from);
      const to = periodEnd(query.to);
      if (from) conditions.push(gte(mailMessages.createdAt, from));
      if (to) conditions.push(lt(mailMessages.createdAt, to));
      const where = conditions.length ? and(...conditions) : undefined;
      const [rows, [counted]] = await Promise.all([
        db
          .select()
          .from(mailMessages)
          .where(where)
          .orderBy(desc(mailMessages.createdAt), desc(mailMessages.id))
          .limit(pageSize)
          .offset((query.page - 1) * pageSize),
        db.select({ total: count() }).from(mailMessages).where(where),
      ]);
      return {
        messages: rows.map(entry),
        total: Number(counted?.total ?? 0),
        page: query.page,
        pageSize,
        templates: [...MAIL_TEMPLATES].sort(),
      };
    },

    /** GET /api/admin/email-logs/{id}: the message as its recipient got it, secrets masked. */
    async view(id: number): Promise<EmailView> {
      const row = await find(id);
      const params = (row.params ?? {}) as Record<string, unknown>;
      const resendable = templateSecrets(row.template).length === 0;
      try {
        const rendered = renderMailPreview(row.template, row.locale, params, { publicUrl: deps.publicUrl });
        return {
          message: entry(row),
          html: rendered.html,
          text: rendered.text,
          masked: rendered.masked,
          resendable,
          params,
          renderError: null,
        };
      } catch (error) {
        return {
          message: entry(row),
          html: "",
          text: "",
          masked: [],
          resendable: false,
          params,
          renderError: error instanceof Error ? error.message : String(error),
        };
      }
    },

    /** POST /api/admin/email-logs/{id}/resend: the same message queued again, as a new one. */
    async resend(id: number): Promise<{ id: number; status: "queued" }> {
      const row = await find(id);
      if (templateSecrets(row.template).length > 0) throw new ApiError("MAIL_RESEND_SECRET");
      const newId = await deps.send({
        to: row.recipient,
        userId: row.userId ?? undefined,
        template: row.template,
        locale: row.locale as Locale,
        params: (row.params ?? {}) as Record<string, unknown>,
      });
      return { id: newId, status: "queued" };
    },
  };
}

export type MailLogService = ReturnType<typeof mailLogService>;
