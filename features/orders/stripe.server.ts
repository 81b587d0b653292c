/**
 * Stripe, through its official SDK: Checkout Sessions created and read server-side, webhooks
 * verified with the endpoint's signing secret. Keys come from the configuration; without a secret
 * key there is no gateway and payment is shown as unavailable. STRIPE_API_BASE points the SDK at
 * another host (tests run a local stand-in, tests/support/fake-stripe.ts).
 */
import Stripe from "stripe";
import type { Config } from "../../platform/config.server.ts";

export type CheckoutSession = {
  id: string;
  url: string | null;
  /** open, complete or expired. */
  status: string | null;
  /** paid, unpaid or no_payment_required. */
  paymentStatus: string;
  clientReferenceId: string | null;
  amountTotal: number | null;
  currency: string | null;
  paymentIntent: string | null;
};

export type NewCheckout = {
  orderUid: string;
  /** A distinct key per attempt: Stripe answers a repeated request with the same session. */
  idempotencyKey: string;
  productName: string;
  amountCents: number;
  currency: string;
  email: string;
  locale: "fr" | "en";
  successUrl: string;
  cancelUrl: string;
};

export type PaymentEvent = { id: string; type: string; session: CheckoutSession | null };

export interface PaymentGateway {
  createCheckout(input: NewCheckout): Promise<CheckoutSession>;
  retrieveCheckout(sessionId: string): Promise<CheckoutSession>;
  /** Verifies the signature (throws when it does not match) and reads the event. */
  verifyWebhook(rawBody: Buffer | string, signature: string | undefined): PaymentEvent;
}

const sessionOf = (s: Stripe.Checkout.Session): CheckoutSession => ({
  id: s.id,
  url: s.url ?? null,
  status: s.status ?? null,
  paymentStatus: s.payment_status,
  clientReferenceId: s.client_reference_id ?? null,
  amountTotal: s.amount_total ?? null,
  currency: s.currency ?? null,
  paymentIntent: typeof s.payment_intent === "string" ? s.payment_intent : (s.payment_intent?.id ?? null),
});

/** The gateway the configuration describes, or null when no secret key is set. */
export function stripeGateway(
  config: Pick<Config, "STRIPE_SECRET_KEY" | "STRIPE_WEBHOOK_SECRET" | "STRIPE_API_BASE">,
): PaymentGateway | null {
  if (!config.STRIPE_SECRET_KEY) return null;
  const base = config.STRIPE_API_BASE ? new URL(config.STRIPE_API_BASE) : null;
  const stripe = new Stripe(config.STRIPE_SECRET_KEY, {
    maxNetworkRetries: 1,
    timeout: 15_000,
    ...(base
      ? {
          host: base.hostname,
          port: base.port ? Number(base.port) : base.protocol === "https:" ? 443 : 80,
          protocol: base.protocol === "https:" ? "https" : "http",
        }
      : {}),
  });
  const webhookSecret = config.STRIPE_WEBHOOK_SECRET;
  return {
    async createCheckout(input) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          client_reference_id: input.orderUid,
          metadata: { orderUid: input.orderUid },
          customer_email: input.email,
          locale: input.locale,
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: input.currency,
                unit_amount: input.amountCents,
                tax_behavior: "inclusive",
                product_data: { name: input.productName },
              },
            },
          ],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return sessionOf(session);
    },
    async retrieveCheckout(sessionId) {
      return sessionOf(await stripe.checkout.sessions.retrieve(sessionId));
    },
    verifyWebhook(rawBody, signature) {
      if (!webhookSecret || !signature) throw new Error("webhook not signed or no secret configured");
      const event = stripe.webhooks.constructEvent(rawBody, signature, webhookSecret);
      const object = event.data.object as { object?: string };
      const session = object.object === "checkout.session" ? sessionOf(object as Stripe.Checkout.Session) : null;
      return { id: event.id, type: event.type, session };
    },
  };
}
