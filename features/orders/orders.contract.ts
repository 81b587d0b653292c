import { z } from "zod";
import { ORDER_STATUSES } from "./order-status.ts";
import { PRODUCT_IDS } from "./products.ts";

export const orderUidParam = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, { message: "ORDER_NOT_FOUND" });
export const productIdParam = z.enum(PRODUCT_IDS, { message: "ITEM_NOT_FOUND" });

export const productSchema = z.object({
  id: z.string(),
  kind: z.enum(["credits", "print"]),
  credits: z.number().int(),
  priceCents: z.number().int(),
  vatRateBp: z.number().int(),
  available: z.boolean(),
});

export const orderSchema = z.object({
  uid: z.string(),
  productId: z.string(),
  credits: z.number().int(),
  /** Amount paid, VAT included (TTC), in cents; netCents + vatCents = amountCents. */
  amountCents: z.number().int(),
  netCents: z.number().int(),
  vatCents: z.number().int(),
  vatRateBp: z.number().int(),
  currency: z.string(),
  status: z.enum(ORDER_STATUSES),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  /** "R-000042" once paid; its PDF at receiptUrl. */
  receiptNumber: z.string().nullable(),
  receiptUrl: z.string().nullable(),
  /** Whether /ext/payment/retry/{uid} can open a new payment for it. */
  retryable: z.boolean(),
});
export type Order = z.infer<typeof orderSchema>;

export const ledgerLineSchema = z.object({
  kind: z.enum(["free", "purchase", "poster", "adjustment"]),
  delta: z.number().int(),
  orderUid: z.string().nullable(),
  posterId: z.number().int().nullable(),
  createdAt: z.string(),
});

/** GET /api/orders: the member's orders, credits and what they can buy. */
export const myOrdersSchema = z.object({
  credits: z.number().int(),
  ledger: z.array(ledgerLineSchema),
  orders: z.array(orderSchema),
  products: z.array(productSchema),
  /** False when the site has no Stripe keys: buying is shown as unavailable. */
  paymentAvailable: z.boolean(),
});
export type MyOrders = z.infer<typeof myOrdersSchema>;

export const adminOrderSchema = orderSchema.extend({
  user: z.object({ id: z.number().int(), email: z.string(), name: z.string() }),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;

export const adminOrdersQuerySchema = z.object({
  status: z.enum(ORDER_STATUSES).optional(),
});

/** GET /api/admin/orders: every order (newest first, up to 500) and the sales totals. */
export const adminOrdersSchema = z.object({
  orders: z.array(adminOrderSchema),
  totals: z.object({
    /** Paid orders only: what was sold. */
    paidCount: z.number().int(),
    amountCents: z.number().int(),
    netCents: z.number().int(),
    vatCents: z.number().int(),
    creditsSold: z.number().int(),
    byStatus: z.record(z.string(), z.number().int()),
  }),
});
export type AdminOrders = z.infer<typeof adminOrdersSchema>;
