/**
 * An order's life (spec: created, pending, failed, paid, cancelled, deleted) as a state machine:
 * every change of status goes through `canMove`, in the service and in the database's UPDATE
 * (… WHERE status IN (the states allowed to move there)), so two writers cannot both move it.
 *
 * - created: the order exists, no payment started yet.
 * - pending: a Stripe Checkout Session is open for it.
 * - failed: the payment was refused (asynchronous payment failed); it can be retried.
 * - cancelled: the session expired or the buyer gave up; it can be retried.
 * - paid: Stripe says the money is received; credits granted. Final. A payment that arrives after
 *   the order was marked failed or cancelled (an older session paid late) still makes it paid:
 *   money received always wins.
 * - deleted: the member removed an order that was never paid. Final.
 */
export const ORDER_STATUSES = ["created", "pending", "failed", "paid", "cancelled", "deleted"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  created: ["pending", "failed", "cancelled", "deleted"],
  pending: ["pending", "paid", "failed", "cancelled"],
  failed: ["pending", "paid", "deleted"],
  cancelled: ["pending", "paid", "deleted"],
  paid: [],
  deleted: [],
};

export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}

/** The statuses an order may be in to move to `to`. */
export function statusesMovingTo(to: OrderStatus): OrderStatus[] {
  return ORDER_STATUSES.filter((from) => canMove(from, to));
}

/** Orders the member can pay again (a new Checkout Session). */
export const RETRYABLE: readonly OrderStatus[] = statusesMovingTo("pending");
