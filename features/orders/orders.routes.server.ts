import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requestLocale } from "../../platform/http/errors.server.ts";
import { fileResponse } from "../../platform/http/route-docs.server.ts";
import { ApiError, apiErrorBodySchema } from "../../shared/api-error.ts";
import type { Locale } from "../../shared/constants.ts";
import { loginHref, pagePath } from "../../shared/i18n/pages.ts";
import { access } from "../identity/access.server.ts";
import { isSameOriginRequest, requireRole, requireUser } from "../identity/auth.server.ts";
import {
  adminOrdersQuerySchema,
  adminOrdersSchema,
  myOrdersSchema,
  orderSchema,
  orderUidParam,
} from "./orders.contract.ts";
import { receiptPdf } from "./receipt.server.ts";

const errors = { 400: apiErrorBodySchema, 401: apiErrorBodySchema, 403: apiErrorBodySchema, 404: apiErrorBodySchema };

/** The language of a payment page: ?lang, else the member's own, else French. */
function paymentLocale(request: FastifyRequest, memberLocale?: string): Locale {
  const lang = (request.query as { lang?: unknown } | undefined)?.lang;
  if (lang === "en" || lang === "fr") return lang;
  return memberLocale === "en" ? "en" : "fr";
}

const langQuery = z.object({ lang: z.enum(["fr", "en"]).optional(), cancelled: z.string().max(5).optional() });

/**
 * Orders, payment and receipts (spec: GET /api/orders, GET /api/orders/{uid}, /ext/payment/price/{id},
 * /ext/payment/check/{uid}, /ext/payment/retry/{uid}; GET /api/admin/orders). The /ext/ routes are
 * what a browser follows: they answer with redirects, to Stripe's payment page or back to the
 * orders tab, whose address carries the outcome (?order=uid or ?error=CODE).
 */
export const ordersRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.orders;

  app.get(
    "/api/orders",
    {
      config: { access: access.member },
      schema: {
        tags: ["orders"],
        summary: "The member's orders, poster credits left, their ledger and the products on sale",
        response: { 200: myOrdersSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("Cache-Control", "private, no-store");
      return service().mine(user.id);
    },
  );

  app.get(
    "/api/orders/:uid",
    {
      config: { access: access.member, openapi: { errors: ["ORDER_NOT_FOUND"] } },
      schema: {
        tags: ["orders"],
        summary: "One of the member's orders (admins: any order)",
        description: "Another member's order answers 404 ORDER_NOT_FOUND, as a missing one does.",
        params: z.object({ uid: orderUidParam }),
        response: { 200: orderSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("Cache-Control", "private, no-store");
      return service().get(request.params.uid, user);
    },
  );

  app.delete(
    "/api/orders/:uid",
    {
      config: { access: access.member, openapi: { errors: ["ORDER_NOT_FOUND"] } },
      schema: {
        tags: ["orders"],
        summary: "Removes an order that was never paid (status deleted)",
        description: "A paid order cannot be removed: 409 ORDER_STATUS_CONFLICT.",
        params: z.object({ uid: orderUidParam }),
        response: { 204: z.null(), ...errors, 409: apiErrorBodySchema },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      await service().remove(request.params.uid, user);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/api/orders/:uid/receipt",
    {
      config: { access: access.member, openapi: { errors: ["ORDER_NOT_FOUND", "RECEIPT_NOT_AVAILABLE"] } },
      schema: {
        tags: ["orders"],
        summary: "The PDF receipt of a paid order",
        params: z.object({ uid: orderUidParam }),
        querystring: z.object({ lang: z.enum(["fr", "en"]).optional() }),
        response: {
          200: fileResponse("application/pdf", "The receipt, a PDF file"),
          ...errors,
          409: apiErrorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const { order, buyer } = await service().forReceipt(request.params.uid, user);
      const locale = request.query.lang ?? requestLocale(request);
      const pdf = await receiptPdf({ order, buyer, locale, seller: sellerOf(app.config) });
      return reply
        .type("application/pdf")
        .header("Cache-Control", "private, no-store")
        .header("Content-Disposition", `attachment; filename="dossard-${order.receiptNumber}.pdf"`)
        .send(pdf);
    },
  );

  app.get(
    "/api/admin/orders",
    {
      config: { access: access.admin },
      schema: {
        tags: ["admin"],
        summary: "Sales and orders: every order (newest first, up to 500) with the totals of what was paid",
        querystring: adminOrdersQuerySchema,
        response: { 200: adminOrdersSchema, ...errors },
      },
    },
    async (request, reply) => {
      await requireRole(request, "admin");
      reply.header("Cache-Control", "private, no-store");
      return service().adminList(request.query);
    },
  );

  /** Back to the orders tab, with the order to show or the error to explain. */
  const toOrders = (reply: FastifyReply, locale: Locale, query: Record<string, string>) =>
    reply.redirect(`${pagePath("orders", locale)}?${new URLSearchParams(query)}`, 303);

  async function browserCall(
    request: FastifyRequest,
    reply: FastifyReply,
    run: (user: { id: number; email: string; role: string }, locale: Locale) => Promise<string>,
  ) {
    reply.header("Cache-Control", "private, no-store");
    const auth = await request.auth();
    if (!auth) return reply.redirect(loginHref(paymentLocale(request), request.url), 303);
    const locale = paymentLocale(request, auth.user.locale);
    try {
      return reply.redirect(await run(auth.user, locale), 303);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      request.log.warn({ code: error.code, err: error.cause }, "payment step refused");
      return toOrders(reply, locale, { error: error.code });
    }
  }

  app.get(
    "/ext/payment/price/:id",
    {
      config: {
        access: access.anyone,
        openapi: {
          redirect: { status: 303, to: "Stripe's payment page, the login page, or the orders tab with ?error=CODE" },
        },
      },
      schema: {
        tags: ["payment"],
        summary: "Starts paying for a product: creates the order and its Stripe Checkout Session, then redirects to it",
        description:
          "Anonymous visitors are sent to the login page. A link followed from another site only leads to the " +
          "orders tab (no order is created for a request the site did not make).",
        params: z.object({ id: z.string().max(40) }),
        querystring: langQuery,
      },
    },
    async (request, reply) =>
      browserCall(request, reply, async (user, locale) => {
        if (!isSameOriginRequest(request))
          return `${pagePath("orders", locale)}?buy=${encodeURIComponent(request.params.id)}`;
        const { redirect } = await service().start(user, request.params.id, locale);
        return redirect;
      }),
  );

  app.get(
    "/ext/payment/retry/:uid",
    {
      config: {
        access: access.anyone,
        openapi: {
          redirect: { status: 303, to: "Stripe's payment page, the login page, or the orders tab with ?error=CODE" },
        },
      },
      schema: {
        tags: ["payment"],
        summary: "Pays again for an order not paid yet: a new Checkout Session, then a redirect to it",
        params: z.object({ uid: orderUidParam }),
        querystring: langQuery,
      },
    },
    async (request, reply) =>
      browserCall(request, reply, async (user, locale) => {
        if (!isSameOriginRequest(request)) return `${pagePath("orders", locale)}?order=${request.params.uid}`;
        const { redirect } = await service().retry(user, request.params.uid, locale);
        return redirect;
      }),
  );

  app.get(
    "/ext/payment/check/:uid",
    {
      config: {
        access: access.anyone,
        openapi: { redirect: { status: 303, to: "the orders tab showing the order (?order=uid), or the login page" } },
      },
      schema: {
        tags: ["payment"],
        summary: "Where Stripe sends the buyer back: asks Stripe for the payment's status, then shows the order",
        params: z.object({ uid: orderUidParam }),
        querystring: langQuery,
      },
    },
    async (request, reply) =>
      browserCall(request, reply, async (user, locale) => {
        const order = await service().check(request.params.uid, user);
        const query = new URLSearchParams({ order: order.uid });
        if (request.query.cancelled && order.status !== "paid") query.set("cancelled", "1");
        return `${pagePath("orders", locale)}?${query}`;
      }),
  );

  // Stripe's webhook: the raw body is needed to check its signature, so this scope reads JSON as bytes.
  await app.register(async (scope) => {
    scope.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
    scope.post(
      "/ext/payment/webhook",
      {
        config: {
          access: access.secret("the Stripe-Signature header, checked against STRIPE_WEBHOOK_SECRET"),
          openapi: { errors: ["WEBHOOK_SIGNATURE_INVALID"] },
        },
        bodyLimit: 256 * 1024,
        schema: {
          tags: ["payment"],
          summary: "Stripe's signed events (checkout.session.completed, async_payment_succeeded/failed, expired)",
          description:
            "Refused (400 WEBHOOK_SIGNATURE_INVALID) unless signed with the endpoint's secret (always, without Stripe " +
            "keys); an event already " +
            "received (same id) is acknowledged and changes nothing.",
          response: {
            200: z.object({ received: z.literal(true), handled: z.string() }),
            400: apiErrorBodySchema,
          },
        },
      },
      async (request) => {
        const signature = request.headers["stripe-signature"];
        const body = request.body as Buffer | undefined;
        const { handled } = await service().webhook(body ?? "", typeof signature === "string" ? signature : undefined);
        return { received: true as const, handled };
      },
    );
  });
};

export function sellerOf(config: {
  LEGAL_PUBLISHER: string;
  LEGAL_ADDRESS: string;
  LEGAL_REGISTRATION: string;
  LEGAL_VAT_NUMBER: string;
  LEGAL_EMAIL: string;
}) {
  return {
    name: config.LEGAL_PUBLISHER,
    address: config.LEGAL_ADDRESS,
    registration: config.LEGAL_REGISTRATION,
    vatNumber: config.LEGAL_VAT_NUMBER,
    email: config.LEGAL_EMAIL,
  };
}
