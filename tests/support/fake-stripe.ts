/**
 * A local HTTP server (127.0.0.1, a free port) that plays the part of Stripe's API that Dossard
 * uses, as Stripe documents it, for the official SDK pointed at it (STRIPE_API_BASE):
 *
 *   POST /v1/checkout/sessions        form-encoded, Bearer secret key, Idempotency-Key honoured
 *   GET  /v1/checkout/sessions/{id}   the session as it stands
 *   GET  /checkout/{id}               a small hosted payment page (Pay / Cancel), for journeys
 *   POST /checkout/{id}/pay           pays it: complete + paid, signed webhook sent, 303 to success_url
 *
 *   const stripe = await startFakeStripe({ webhookUrl });     // webhookUrl optional
 *   const t = await createTestApp({ env: stripe.env });
 *   stripe.pay(sessionId) / stripe.expire(sessionId)          // change a session as Stripe would
 *   const { payload, signature } = stripe.signedEvent("checkout.session.completed", sessionId);
 *
 * Errors come in Stripe's shape ({ error: { type, code, message } }). Signatures are made with the
 * SDK's own `webhooks.generateTestHeaderString`, so the app verifies them as it would Stripe's.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export const FAKE_STRIPE_KEY = "sk_test_dossard_fake_key";
export const FAKE_WEBHOOK_SECRET = "whsec_dossard_fake_secret";

export type FakeSession = {
  id: string;
  object: "checkout.session";
  mode: string;
  url: string | null;
  status: "open" | "complete" | "expired";
  payment_status: "paid" | "unpaid";
  client_reference_id: string | null;
  customer_email: string | null;
  amount_total: number;
  amount_subtotal: number;
  currency: string;
  locale: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  success_url: string;
  cancel_url: string;
  created: number;
  livemode: false;
};

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

function stripeError(res: http.ServerResponse, status: number, type: string, message: string, code?: string) {
  res.writeHead(status, { "content-type": "application/json", "request-id": id("req") });
  res.end(JSON.stringify({ error: { type, message, ...(code ? { code } : {}) } }));
}

function send(res: http.ServerResponse, body: unknown) {
  res.writeHead(200, { "content-type": "application/json", "request-id": id("req") });
  res.end(JSON.stringify(body));
}

export async function startFakeStripe(options: { webhookUrl?: string } = {}) {
  const sessions = new Map<string, FakeSession>();
  const idempotent = new Map<string, string>();
  const requests: { method: string; path: string; form?: URLSearchParams }[] = [];
  let failNext: { status: number; times: number } | null = null;
  let webhookUrl = options.webhookUrl;
  const signer = new Stripe(FAKE_STRIPE_KEY);

  function event(type: string, session: FakeSession, eventId = id("evt")) {
    return {
      id: eventId,
      object: "event",
      api_version: "2025-01-01",
      created: Math.floor(Date.now() / 1000),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: session },
    };
  }

  /** A webhook body and its Stripe-Signature header (a wrong `secret` makes a forged one). */
  function signedEvent(type: string, sessionId: string, opts: { eventId?: string; secret?: string } = {}) {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    const payload = JSON.stringify(event(type, session, opts.eventId));
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? FAKE_WEBHOOK_SECRET });
    return { payload, signature, eventId: JSON.parse(payload).id as string };
  }

  async function deliver(type: string, sessionId: string): Promise<number> {
    if (!webhookUrl) return 0;
    const { payload, signature } = signedEvent(type, sessionId);
    const response = await fetch(webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      body: payload,
    });
    return response.status;
  }

  function pay(sessionId: string): FakeSession {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    if (session.status !== "open") throw new Error(`session ${sessionId} is ${session.status}`);
    session.status = "complete";
    session.payment_status = "paid";
    session.payment_intent = id("pi");
    session.url = null;
    return session;
  }

  function expire(sessionId: string): FakeSession {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    session.status = "expired";
    session.url = null;
    return session;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", "http://localhost");
        const body = Buffer.concat(chunks).toString("utf8");
        const form = new URLSearchParams(body);
        requests.push({ method: req.method ?? "", path: url.pathname, ...(body ? { form } : {}) });

        // The hosted payment page (what the buyer's browser sees).
        const page = /^\/checkout\/(cs_[a-z0-9_]+)(\/pay)?$/.exec(url.pathname);
        if (page) {
          const session = sessions.get(page[1] as string);
          if (!session) return stripeError(res, 404, "invalid_request_error", "No such page");
          if (page[2] && req.method === "POST") {
            if (session.status === "open") {
              pay(session.id);
              await deliver("checkout.session.completed", session.id);
            }
            res.writeHead(303, { location: session.success_url });
            return res.end();
          }
          const amount = (session.amount_total / 100).toFixed(2);
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          return res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake Stripe Checkout</title></head>
<body><main><h1>Fake Stripe Checkout</h1><p>Amount: <span id="amount">${amount}</span> ${session.currency.toUpperCase()}</p>
<form method="post" action="/checkout/${session.id}/pay"><button type="submit">Pay</button></form>
<p><a href="${session.cancel_url.replace(/&/g, "&amp;")}">Cancel</a></p></main></body></html>`);
        }

        if (!url.pathname.startsWith("/v1/"))
          return stripeError(res, 404, "invalid_request_error", "Unrecognized request URL");
        if (req.headers.authorization !== `Bearer ${FAKE_STRIPE_KEY}`) {
          return stripeError(res, 401, "invalid_request_error", "Invalid API Key provided");
        }
        if (failNext) {
          const { status } = failNext;
          failNext.times -= 1;
          if (failNext.times <= 0) failNext = null;
          return stripeError(res, status, "api_error", "Something went wrong on Stripe's end.");
        }
        if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
          const key = req.headers["idempotency-key"];
          const again = typeof key === "string" ? idempotent.get(key) : undefined;
          if (again) return send(res, sessions.get(again));
          const unit = Number(form.get("line_items[0][price_data][unit_amount]"));
          const quantity = Number(form.get("line_items[0][quantity]") ?? "1");
          const currency = form.get("line_items[0][price_data][currency]");
          const successUrl = form.get("success_url");
          const cancelUrl = form.get("cancel_url");
          if (form.get("mode") !== "payment")
            return stripeError(res, 400, "invalid_request_error", "Missing mode", "parameter_missing");
          if (!Number.isInteger(unit) || unit < 50 || !currency) {
            return stripeError(res, 400, "invalid_request_error", "Invalid line_items", "parameter_invalid_integer");
          }
          if (!successUrl || !cancelUrl)
            return stripeError(res, 400, "invalid_request_error", "Missing success_url", "parameter_missing");
          const sessionId = id("cs_test");
          const { port } = server.address() as AddressInfo;
          const metadata: Record<string, string> = {};
          for (const [k, v] of form) {
            const m = /^metadata\[(.+)\]$/.exec(k);
            if (m) metadata[m[1] as string] = v;
          }
          const session: FakeSession = {
            id: sessionId,
            object: "checkout.session",
            mode: "payment",
            url: `http://127.0.0.1:${port}/checkout/${sessionId}`,
            status: "open",
            payment_status: "unpaid",
            client_reference_id: form.get("client_reference_id"),
            customer_email: form.get("customer_email"),
            amount_total: unit * quantity,
            amount_subtotal: unit * quantity,
            currency,
            locale: form.get("locale"),
            metadata,
            payment_intent: null,
            success_url: successUrl,
            cancel_url: cancelUrl,
            created: Math.floor(Date.now() / 1000),
            livemode: false,
          };
          sessions.set(sessionId, session);
          if (typeof key === "string") idempotent.set(key, sessionId);
          return send(res, session);
        }
        const read = /^\/v1\/checkout\/sessions\/([A-Za-z0-9_]+)$/.exec(url.pathname);
        if (req.method === "GET" && read) {
          const session = sessions.get(read[1] as string);
          if (!session)
            return stripeError(
              res,
              404,
              "invalid_request_error",
              `No such checkout.session: '${read[1]}'`,
              "resource_missing",
            );
          return send(res, session);
        }
        return stripeError(res, 404, "invalid_request_error", "Unrecognized request URL");
      })().catch((error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    env: { STRIPE_SECRET_KEY: FAKE_STRIPE_KEY, STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET, STRIPE_API_BASE: base },
    sessions,
    requests,
    signedEvent,
    deliver,
    pay,
    expire,
    setWebhookUrl(url: string) {
      webhookUrl = url;
    },
    /** The next `times` API calls answer with this status (a Stripe outage; the SDK retries once). */
    failNext(status = 500, times = 2) {
      failNext = { status, times };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;
