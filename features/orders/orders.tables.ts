import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { users } from "../identity/identity.tables.ts";
import { ORDER_STATUSES } from "./order-status.ts";

export const orderStatus = pgEnum("order_status", ORDER_STATUSES);

/**
 * The last receipt number given, in its one row. Receipts are numbered in one unbroken series
 * (French invoicing): the number is taken by `UPDATE … RETURNING` in the transaction that records
 * the payment, whose row lock makes concurrent payments take their turn and whose rollback gives
 * the number back. A sequence would not: it loses the values of rolled-back transactions, and up
 * to 32 after a crash (issue 25 §2 item 6).
 */
export const receiptCounter = pgTable(
  "receipt_counter",
  {
    id: smallint("id").primaryKey().default(1),
    lastNumber: integer("last_number").notNull(),
  },
  (t) => [
    check("receipt_counter_one_row", sql`${t.id} = 1`),
    check("receipt_counter_positive", sql`${t.lastNumber} >= 0`),
  ],
);

/**
 * A member's purchase: a copy of what was bought (product id, credits, price TTC, VAT rate) so
 * that changing the product table never changes a past order or its receipt.
 */
export const orders = pgTable(
  "orders",
  {
    id: serial("id").primaryKey(),
    /** Public, unguessable id used in addresses (/ext/payment/check/{uid}). */
    uid: text("uid").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    productId: text("product_id").notNull(),
    credits: integer("credits").notNull(),
    amountCents: integer("amount_cents").notNull(),
    vatRateBp: integer("vat_rate_bp").notNull(),
    currency: text("currency").notNull().default("eur"),
    status: orderStatus("status").notNull().default("created"),
    /** The latest Stripe Checkout Session opened for it (a retry opens a new one). */
    stripeSessionId: text("stripe_session_id"),
    stripePaymentIntent: text("stripe_payment_intent"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    receiptNumber: integer("receipt_number"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("orders_uid_idx").on(t.uid),
    uniqueIndex("orders_receipt_number_idx").on(t.receiptNumber),
    index("orders_user_idx").on(t.userId, t.createdAt),
    index("orders_status_idx").on(t.status),
    check("orders_amount_positive", sql`${t.amountCents} > 0 AND ${t.credits} >= 0`),
    check("orders_paid_has_receipt", sql`(${t.status} = 'paid') = (${t.receiptNumber} IS NOT NULL)`),
  ],
);

/** Every Checkout Session ever opened for an order (the webhook finds the order of an older one). */
export const paymentSessions = pgTable(
  "payment_sessions",
  {
    sessionId: text("session_id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("payment_sessions_order_idx").on(t.orderId)],
);

/** Stripe events already handled: a replayed event (same id) changes nothing. */
export const paymentEvents = pgTable("payment_events", {
  eventId: text("event_id").primaryKey(),
  type: text("type").notNull(),
  orderId: integer("order_id").references(() => orders.id, { onDelete: "set null" }),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

export const creditKind = pgEnum("credit_kind", ["free", "purchase", "poster", "adjustment"]);

/**
 * The poster credits ledger: one row per grant (+n) or use (−1), never a counter overwritten. A
 * member's balance is the sum of their rows. Unique indexes make each grant happen once: the free
 * credit once per member, a purchase's credits once per order, a poster's credit once per poster.
 */
export const creditEntries = pgTable(
  "credit_entries",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: creditKind("kind").notNull(),
    delta: integer("delta").notNull(),
    orderId: integer("order_id").references(() => orders.id, { onDelete: "restrict" }),
    /** The poster whose export used the credit (features/posters; no foreign key across features). */
    posterId: integer("poster_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("credit_entries_user_idx").on(t.userId),
    uniqueIndex("credit_entries_free_idx").on(t.userId).where(sql`${t.kind} = 'free'`),
    uniqueIndex("credit_entries_order_idx").on(t.orderId).where(sql`${t.kind} = 'purchase'`),
    uniqueIndex("credit_entries_poster_idx").on(t.posterId).where(sql`${t.kind} = 'poster'`),
    check(
      "credit_entries_shape",
      sql`(${t.kind} = 'free' AND ${t.delta} = 1)
        OR (${t.kind} = 'purchase' AND ${t.delta} > 0 AND ${t.orderId} IS NOT NULL)
        OR (${t.kind} = 'poster' AND ${t.delta} = -1 AND ${t.posterId} IS NOT NULL)
        OR ${t.kind} = 'adjustment'`,
    ),
  ],
);
