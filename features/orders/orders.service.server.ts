/**
 * Orders of poster credits and their payment through Stripe Checkout.
 *
 * An order is created with a copy of its product, then a Checkout Session is opened for it
 * (pending). It becomes paid only on Stripe's word, read server-side: a verified webhook, or the
 * session fetched from Stripe's API when the buyer comes back (/ext/payment/check/{uid}) — never
 * on the browser's. Being paid is one UPDATE … WHERE status IN (…) RETURNING: whichever of the
 * webhook and the check comes first moves the order and grants its credits in the same
 * transaction; the other finds it paid and changes nothing. Each Stripe event id is recorded: a
 * replayed event is acknowledged and ignored; an unsigned or badly signed one is refused.
 */
import { randomBytes } from "node:crypto";
import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { rows as rowsOf } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import type { Locale } from "../../shared/constants.ts";
import { createI18n } from "../../shared/i18n/index.ts";
import { users } from "../identity/identity.tables.ts";
import { creditBalance, creditLedger, grantOrderCredits } from "./credits.service.server.ts";
import { canMove, type OrderStatus, RETRYABLE, statusesMovingTo } from "./order-status.ts";
import type { AdminOrders, MyOrders, Order } from "./orders.contract.ts";
import { orders, paymentEvents, paymentSessions, receiptCounter } from "./orders.tables.ts";
import { PRODUCTS, productById, splitVat } from "./products.ts";
import type { CheckoutSession, PaymentGateway } from "./stripe.server.ts";

type OrderRow = typeof orders.$inferSelect;

export const receiptLabel = (n: number | null) => (n === null ? null : `R-${String(n).padStart(6, "0")}`);

export function orderView(row: OrderRow): Order {
  const { netCents, vatCents } = splitVat(row.amountCents, row.vatRateBp);
  return {
    uid: row.uid,
    productId: row.productId,
    credits: row.credits,
    amountCents: row.amountCents,
    netCents,
    vatCents,
    vatRateBp: row.vatRateBp,
    currency: row.currency,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    receiptNumber: receiptLabel(row.receiptNumber),
    receiptUrl: row.status === "paid" ? `/api/orders/${row.uid}/receipt` : null,
    retryable: RETRYABLE.includes(row.status),
  };
}

export type Viewer = { id: number; role: string };

export type PaymentResult = { order: Order; redirect: string };

export function ordersService(
  db: Db,
  clock: () => Date,
  deps: { payments: PaymentGateway | null; publicOrigin: string },
) {
  const { payments } = deps;

  async function findOwn(uid: string, viewer: Viewer, executor: Executor = db): Promise<OrderRow> {
    const [row] = await executor.select().from(orders).where(eq(orders.uid, uid)).limit(1);
    // Another member's order is answered as missing: its existence is not theirs to learn.
    if (!row || row.status === "deleted" || (row.userId !== viewer.id && viewer.role !== "admin")) {
      throw new ApiError("ORDER_NOT_FOUND");
    }
    return row;
  }

  /**
   * Moves an order to `to` if its current status allows it (order-status.ts), in one statement:
   * null when it was not in a status that may move there (someone else moved it first).
   */
  async function move(
    executor: Executor,
    orderId: number,
    to: OrderStatus,
    extra: Partial<typeof orders.$inferInsert> = {},
  ): Promise<OrderRow | null> {
    const [row] = await executor
      .update(orders)
      .set({ ...extra, status: to, updatedAt: clock() })
      .where(and(eq(orders.id, orderId), inArray(orders.status, statusesMovingTo(to))))
      .returning();
    return row ?? null;
  }

  /**
   * The next receipt number, taken in the caller's transaction: the counter's row stays locked
   * until it ends, and a rollback gives the number back (orders.tables.ts receiptCounter).
   */
  async function nextReceiptNumber(tx: Executor): Promise<number> {
    const [counter] = await tx
      .update(receiptCounter)
      .set({ lastNumber: sql`${receiptCounter.lastNumber} + 1` })
      .returning({ number: receiptCounter.lastNumber });
    if (!counter) throw new Error("receipt_counter has no row (see its migration)");
    return counter.number;
  }

  /** Paid, with its receipt number, and its credits granted: once, whoever calls first. */
  async function markPaid(tx: Executor, orderId: number, session: CheckoutSession): Promise<OrderRow | null> {
    const [current] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!current) return null;
    if (current.status === "paid") return current;
    if (session.amountTotal !== null && session.amountTotal !== current.amountCents) return null;
    if (session.currency !== null && session.currency !== current.currency) return null;
    // Decided before a number is taken: the row is locked, so the move below cannot be refused.
    if (!canMove(current.status, "paid")) return null;
    const paid = await move(tx, orderId, "paid", {
      paidAt: clock(),
      receiptNumber: await nextReceiptNumber(tx),
      stripeSessionId: session.id,
      stripePaymentIntent: session.paymentIntent,
    });
    // Never commit a number without its order (the transaction rolls back, the number with it).
    if (!paid) throw new Error(`order ${orderId} changed under its lock`);
    await grantOrderCredits(tx, paid);
    return paid;
  }

  /** What a Checkout Session, as Stripe reports it, means for its order. */
  async function applySession(tx: Executor, order: OrderRow, session: CheckoutSession): Promise<OrderRow> {
    if (session.clientReferenceId && session.clientReferenceId !== order.uid) return order;
    if (session.status === "complete" && session.paymentStatus !== "unpaid") {
      return (await markPaid(tx, order.id, session)) ?? order;
    }
    // Only the latest session speaks for an order that is not paid: an older one expiring after a
    // retry does not cancel the new attempt.
    if (session.id !== order.stripeSessionId) return order;
    if (session.status === "expired") return (await move(tx, order.id, "cancelled")) ?? order;
    return order;
  }

  async function openCheckout(order: OrderRow, email: string, locale: Locale): Promise<string> {
    if (!payments) throw new ApiError("PAYMENT_UNAVAILABLE");
    const [{ n }] = await db.select({ n: count() }).from(paymentSessions).where(eq(paymentSessions.orderId, order.id));
    const check = `${deps.publicOrigin}/ext/payment/check/${order.uid}?lang=${locale}`;
    let session: CheckoutSession;
    try {
      session = await payments.createCheckout({
        orderUid: order.uid,
        idempotencyKey: `${order.uid}-${n + 1}`,
        productName: productName(order.productId, locale),
        amountCents: order.amountCents,
        currency: order.currency,
        email,
        locale,
        successUrl: check,
        cancelUrl: `${check}&cancelled=1`,
      });
    } catch (error) {
      await move(db, order.id, order.status === "created" ? "failed" : order.status);
      throw new ApiError("PAYMENT_UNAVAILABLE", { cause: error });
    }
    if (!session.url) throw new ApiError("PAYMENT_UNAVAILABLE");
    await db.transaction(async (tx) => {
      await tx.insert(paymentSessions).values({ sessionId: session.id, orderId: order.id }).onConflictDoNothing();
      const moved = await move(tx, order.id, "pending", { stripeSessionId: session.id });
      if (!moved) throw new ApiError("ORDER_STATUS_CONFLICT");
    });
    return session.url;
  }

  return {
    paymentAvailable: payments !== null,

    async mine(userId: number): Promise<MyOrders> {
      const [rows, credits, ledger] = await Promise.all([
        db
          .select()
          .from(orders)
          .where(and(eq(orders.userId, userId), sql`${orders.status} <> 'deleted'`))
          .orderBy(desc(orders.createdAt), desc(orders.id))
          .limit(200),
        creditBalance(db, userId),
        creditLedger(db, userId),
      ]);
      return {
        credits,
        ledger,
        orders: rows.map(orderView),
        products: PRODUCTS.map((p) => ({ ...p })),
        paymentAvailable: payments !== null,
      };
    },

    async get(uid: string, viewer: Viewer): Promise<Order> {
      return orderView(await findOwn(uid, viewer));
    },

    /** The order's row for the receipt (paid orders only). */
    async forReceipt(uid: string, viewer: Viewer) {
      const row = await findOwn(uid, viewer);
      if (row.status !== "paid") throw new ApiError("RECEIPT_NOT_AVAILABLE");
      const [buyer] = await db
        .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
        .from(users)
        .where(eq(users.id, row.userId));
      return { order: orderView(row), buyer: buyer ?? null };
    },

    /** /ext/payment/price/{id}: a new order for the product and its Checkout Session. */
    async start(user: { id: number; email: string }, productId: string, locale: Locale): Promise<PaymentResult> {
      const product = productById(productId);
      if (!product) throw new ApiError("ITEM_NOT_FOUND");
      if (!product.available) throw new ApiError("PRODUCT_UNAVAILABLE");
      if (!payments) throw new ApiError("PAYMENT_UNAVAILABLE");
      const [row] = await db
        .insert(orders)
        .values({
          uid: randomBytes(16).toString("base64url"),
          userId: user.id,
          productId: product.id,
          credits: product.credits,
          amountCents: product.priceCents,
          vatRateBp: product.vatRateBp,
          createdAt: clock(),
          updatedAt: clock(),
        })
        .returning();
      if (!row) throw new ApiError("GENERIC");
      const redirect = await openCheckout(row, user.email, locale);
      return { order: orderView({ ...row, status: "pending" }), redirect };
    },

    /** /ext/payment/retry/{uid}: a new Checkout Session for an order not paid yet. */
    async retry(
      user: { id: number; email: string; role: string },
      uid: string,
      locale: Locale,
    ): Promise<PaymentResult> {
      const row = await findOwn(uid, { id: user.id, role: "member" });
      if (!RETRYABLE.includes(row.status)) throw new ApiError("ORDER_STATUS_CONFLICT");
      const redirect = await openCheckout(row, user.email, locale);
      return { order: orderView({ ...row, status: "pending" }), redirect };
    },

    /** /ext/payment/check/{uid}: asks Stripe about the order's latest session and records what it says. */
    async check(uid: string, viewer: Viewer): Promise<Order> {
      const row = await findOwn(uid, viewer);
      if (!payments || !row.stripeSessionId || row.status === "paid") return orderView(row);
      const session = await payments.retrieveCheckout(row.stripeSessionId);
      const updated = await db.transaction(async (tx) => {
        const [current] = await tx.select().from(orders).where(eq(orders.id, row.id));
        return current ? applySession(tx, current, session) : row;
      });
      return orderView(updated);
    },

    /** The member gives up an order never paid. */
    async remove(uid: string, viewer: Viewer): Promise<void> {
      const row = await findOwn(uid, { id: viewer.id, role: "member" });
      const moved = await move(db, row.id, "deleted");
      if (!moved) throw new ApiError("ORDER_STATUS_CONFLICT");
    },

    /**
     * POST /ext/payment/webhook: a verified Stripe event. Returns what it did; throws
     * WEBHOOK_SIGNATURE_INVALID when the signature does not match (nothing changes).
     */
    async webhook(rawBody: Buffer | string, signature: string | undefined): Promise<{ handled: string }> {
      // Without Stripe keys nothing can be verified: every call is refused as unsigned.
      if (!payments) throw new ApiError("WEBHOOK_SIGNATURE_INVALID");
      let event: ReturnType<PaymentGateway["verifyWebhook"]>;
      try {
        event = payments.verifyWebhook(rawBody, signature);
      } catch (error) {
        throw new ApiError("WEBHOOK_SIGNATURE_INVALID", { cause: error });
      }
      const session = event.session;
      return db.transaction(async (tx) => {
        const [link] = session
          ? await tx
              .select({ orderId: paymentSessions.orderId })
              .from(paymentSessions)
              .where(eq(paymentSessions.sessionId, session.id))
          : [];
        const fresh = await tx
          .insert(paymentEvents)
          .values({ eventId: event.id, type: event.type, orderId: link?.orderId ?? null, receivedAt: clock() })
          .onConflictDoNothing()
          .returning({ eventId: paymentEvents.eventId });
        if (!fresh.length) return { handled: "replay" };
        if (!session || !link) return { handled: "ignored" };
        const [order] = await tx.select().from(orders).where(eq(orders.id, link.orderId)).for("update");
        if (!order) return { handled: "ignored" };
        switch (event.type) {
          case "checkout.session.completed":
          case "checkout.session.async_payment_succeeded":
            await applySession(tx, order, session);
            return { handled: "applied" };
          case "checkout.session.async_payment_failed":
            if (session.id === order.stripeSessionId) await move(tx, order.id, "failed");
            return { handled: "applied" };
          case "checkout.session.expired":
            await applySession(tx, order, { ...session, status: "expired" });
            return { handled: "applied" };
          default:
            return { handled: "ignored" };
        }
      });
    },

    /** GET /api/admin/orders: the orders (newest first) and what was sold. */
    async adminList(filter: { status?: OrderStatus }): Promise<AdminOrders> {
      const where = filter.status ? eq(orders.status, filter.status) : undefined;
      const [rows, groups] = await Promise.all([
        db
          .select({ order: orders, email: users.email, firstName: users.firstName, lastName: users.lastName })
          .from(orders)
          .innerJoin(users, eq(users.id, orders.userId))
          .where(where)
          .orderBy(desc(orders.createdAt), desc(orders.id))
          .limit(500),
        // Each order's HT rounded as its receipt rounds it (products.ts splitVat), then summed.
        rowsOf<{ status: string; n: number; amount: number; net: number; credits: number }>(
          db,
          sql`SELECT status::text, count(*)::int AS n, coalesce(sum(amount_cents), 0)::int AS amount,
                coalesce(sum(round(amount_cents * 10000.0 / (10000 + vat_rate_bp))), 0)::int AS net,
                coalesce(sum(credits), 0)::int AS credits
              FROM orders GROUP BY status`,
        ),
      ]);
      const byStatus = Object.fromEntries(groups.map((g) => [g.status, g.n]));
      const paid = groups.find((g) => g.status === "paid");
      const paidCount = paid?.n ?? 0;
      const amountCents = paid?.amount ?? 0;
      const netCents = paid?.net ?? 0;
      const vatCents = amountCents - netCents;
      const creditsSold = paid?.credits ?? 0;
      return {
        orders: rows.map((r) => ({
          ...orderView(r.order),
          user: { id: r.order.userId, email: r.email, name: `${r.firstName} ${r.lastName}`.trim() },
        })),
        totals: { paidCount, amountCents, netCents, vatCents, creditsSold, byStatus },
      };
    },
  };
}
export type OrdersService = ReturnType<typeof ordersService>;

/** The product's name on Stripe's payment page and on the receipt. */
export function productName(productId: string, locale: Locale): string {
  return createI18n(locale).t(`orders:products.${productId}`);
}
