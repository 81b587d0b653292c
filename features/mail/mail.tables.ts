import {
  bigserial,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  smallint,
  text,
  timestamp,
  varchar,
} from "drizzle-orm/pg-core";

export const mailStatus = pgEnum("mail_status", ["queued", "sent", "failed"]);

/** Every message Dossard sends, for the admin's sent-emails screen. */
export const mailMessages = pgTable(
  "mail_messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    recipient: text("recipient").notNull(),
    /** Nullable: mail to people without an account (organisers, newsletter). */
    userId: integer("user_id"),
    template: varchar("template", { length: 48 }).notNull(),
    locale: varchar("locale", { length: 2 }).notNull(),
    subject: text("subject").notNull(),
    /** Template parameters; secrets (codes, links) are rendered at send time and never kept here. */
    params: jsonb("params").notNull(),
    status: mailStatus("status").notNull().default("queued"),
    attempts: smallint("attempts").notNull().default(0),
    error: text("error"),
    /** SMTP Message-ID, or the outbox file name. */
    messageId: text("message_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [index("mail_messages_created_idx").on(t.createdAt), index("mail_messages_recipient_idx").on(t.recipient)],
);
