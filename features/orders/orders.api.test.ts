import { eq, inArray, sql } from "drizzle-orm";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { accessHeaders, createTestApp, type TestApp, testMember } from "../../tests/api/harness.ts";
import { FAKE_WEBHOOK_SECRET, type FakeStripe, startFakeStripe } from "../../tests/support/fake-stripe.ts";
import { consumePosterCredit, creditBalance } from "./credits.service.server.ts";
import type { MyOrders, Order } from "./orders.contract.ts";
import { orders } from "./orders.tables.ts";

let t: TestApp;
let stripe: FakeStripe;
const LEGAL = {
  LEGAL_PUBLISHER: "Dossard SAS",
  LEGAL_ADDRESS: "12 rue des Coureurs, 74000 Annecy",
  LEGAL_REGISTRATION: "123 456 789 00012",
  LEGAL_VAT_NUMBER: "FR12123456789",
};

beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await createTestApp({ env: { ...stripe.env, ...LEGAL } });
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

type Member = Awaited<ReturnType<typeof testMember>>;
const get = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url, headers: { ...(cookie ? { cookie } : {}), ...headers } });
/** What the browser sends when the member clicks a link on the site. */
const sameSite = { "sec-fetch-site": "same-origin" };
const mine = async (m: Member) => (await get("/api/orders", m.cookie)).json() as MyOrders;
const orderOf = async (uid: string, m: Member) => (await get(`/api/orders/${uid}`, m.cookie)).json() as Order;
const webhook = (payload: string, signature?: string) =>
  t.app.inject({
    method: "POST",
    url: "/ext/payment/webhook",
    headers: { "content-type": "application/json", ...(signature ? { "stripe-signature": signature } : {}) },
    payload,
  });

/** Starts paying for a product as the member's browser would: the order's uid and its Checkout Session id. */
async function startPaying(m: Member, product = "credits-3") {
  const response = await get(`/ext/payment/price/${product}?lang=fr`, m.cookie, sameSite);
  expect(response.statusCode).toBe(303);
  const location = String(response.headers.location);
  expect(location.startsWith(`${stripe.base}/checkout/cs_test_`)).toBe(true);
  const sessionId = location.split("/").pop() as string;
  const session = stripe.sessions.get(sessionId);
  return { uid: session?.client_reference_id as string, sessionId };
}

describe("poster credits", () => {
  it("gives every member one free credit, used once, then refuses with NO_POSTER_CREDIT", async () => {
    const m = await testMember(t);
    expect((await mine(m)).credits).toBe(1);
    expect(await creditBalance(t.database.db, m.id)).toBe(1);
    const first = await consumePosterCredit(t.database.db, null, m.id, 900_001);
    expect(first).toEqual({ consumed: true, balance: 0 });
    // The same poster exported again uses no second credit.
    expect(await consumePosterCredit(t.database.db, null, m.id, 900_001)).toEqual({ consumed: false, balance: 0 });
    const refused = await consumePosterCredit(t.database.db, null, m.id, 900_002).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe("NO_POSTER_CREDIT");
    expect((refused as ApiError).status).toBe(402);
    expect((refused as ApiError).toBody("fr").error.message).toBe("Vous n'avez plus de crédit poster.");
    expect((refused as ApiError).toBody("en").error.message).toBe("You have no poster credit left.");
    const after = await mine(m);
    expect(after.credits).toBe(0);
    expect(after.ledger.map((l) => [l.kind, l.delta])).toEqual([
      ["poster", -1],
      ["free", 1],
    ]);
  });

  it("rolls the credit back with the caller's transaction when its export fails", async () => {
    const m = await testMember(t);
    await t.database.db
      .transaction(async (tx) => {
        await consumePosterCredit(t.database.db, tx, m.id, 900_010);
        throw new Error("render failed");
      })
      .catch(() => null);
    expect(await creditBalance(t.database.db, m.id)).toBe(1);
  });

  it("lets only one of two exports racing for the last credit through", async () => {
    const m = await testMember(t);
    const results = await Promise.allSettled([
      consumePosterCredit(t.database.db, null, m.id, 900_020),
      consumePosterCredit(t.database.db, null, m.id, 900_021),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
    expect(rejected.map((r) => (r.reason as ApiError).code)).toEqual(["NO_POSTER_CREDIT"]);
    expect(await creditBalance(t.database.db, m.id)).toBe(0);
  });

  it("spends exactly the credits there are when many exports race (1 free + 3 bought, 7 exports)", async () => {
    const m = await testMember(t);
    const { uid, sessionId } = await startPaying(m, "credits-3");
    stripe.pay(sessionId);
    await get(`/ext/payment/check/${uid}`, m.cookie);
    expect(await creditBalance(t.database.db, m.id)).toBe(4);
    const results = await Promise.allSettled(
      Array.from({ length: 7 }, (_, i) => consumePosterCredit(t.database.db, null, m.id, 900_100 + i)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(4);
    expect(await creditBalance(t.database.db, m.id)).toBe(0);
    const [sum] = await rows<{ n: number }>(
      t.database.db,
      sql`SELECT coalesce(sum(delta), 0)::int AS n FROM credit_entries WHERE user_id = ${m.id}`,
    );
    expect(sum?.n).toBe(0);
  });
});

describe("paying with Stripe", () => {
  it("creates the order and its Checkout Session, then grants the credits once Stripe says paid (check page)", async () => {
    const m = await testMember(t);
    const { uid, sessionId } = await startPaying(m, "credits-3");
    const create = stripe.requests.findLast((r) => r.method === "POST" && r.path === "/v1/checkout/sessions");
    expect(create?.form?.get("line_items[0][price_data][unit_amount]")).toBe("1290");
    expect(create?.form?.get("line_items[0][price_data][currency]")).toBe("eur");
    expect(create?.form?.get("client_reference_id")).toBe(uid);
    expect(create?.form?.get("customer_email")).toBe(m.email);
    expect(create?.form?.get("success_url")).toBe(`http://localhost:3000/ext/payment/check/${uid}?lang=fr`);
    expect((await orderOf(uid, m)).status).toBe("pending");

    // Back from Stripe before paying: still pending, nothing granted (the browser's word is not enough).
    const early = await get(`/ext/payment/check/${uid}?lang=fr`, m.cookie);
    expect(early.headers.location).toBe(`/user/commandes?order=${uid}`);
    expect((await orderOf(uid, m)).status).toBe("pending");
    expect((await mine(m)).credits).toBe(1);

    stripe.pay(sessionId);
    const back = await get(`/ext/payment/check/${uid}?lang=en`, m.cookie);
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(`/en/user/orders?order=${uid}`);
    const paid = await orderOf(uid, m);
    expect(paid).toMatchObject({ status: "paid", amountCents: 1290, netCents: 1075, vatCents: 215, credits: 3 });
    expect(paid.receiptNumber).toMatch(/^R-\d{6}$/);
    expect((await mine(m)).credits).toBe(4);

    // Stripe's webhook arriving afterwards, and then replayed, changes nothing more.
    const event = stripe.signedEvent("checkout.session.completed", sessionId);
    expect((await webhook(event.payload, event.signature)).json()).toEqual({ received: true, handled: "applied" });
    expect((await webhook(event.payload, event.signature)).json()).toEqual({ received: true, handled: "replay" });
    await get(`/ext/payment/check/${uid}`, m.cookie);
    expect((await mine(m)).credits).toBe(4);
    const [{ n }] = await rows<{ n: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS n FROM credit_entries c JOIN orders o ON o.id = c.order_id WHERE o.uid = ${uid}`,
    );
    expect(n).toBe(1);
  });

  it("grants the credits on the verified webhook alone, once, however often it is replayed", async () => {
    const m = await testMember(t);
    const { uid, sessionId } = await startPaying(m, "credits-10");
    stripe.pay(sessionId);
    const event = stripe.signedEvent("checkout.session.completed", sessionId);
    const first = await webhook(event.payload, event.signature);
    expect(first.statusCode).toBe(200);
    expect((await orderOf(uid, m)).status).toBe("paid");
    expect((await mine(m)).credits).toBe(11);
    // The same event replayed, and a second event for the same payment (a new id), grant nothing more.
    await webhook(event.payload, event.signature);
    const other = stripe.signedEvent("checkout.session.async_payment_succeeded", sessionId);
    expect((await webhook(other.payload, other.signature)).json()).toEqual({ received: true, handled: "applied" });
    expect((await mine(m)).credits).toBe(11);
  });

  it("refuses forged webhooks and changes nothing", async () => {
    const m = await testMember(t);
    const { uid, sessionId } = await startPaying(m, "credits-1");
    stripe.pay(sessionId);
    const forged = stripe.signedEvent("checkout.session.completed", sessionId, { secret: "whsec_someone_else" });
    const refused = await webhook(forged.payload, forged.signature);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe("WEBHOOK_SIGNATURE_INVALID");
    expect((await webhook(forged.payload)).statusCode).toBe(400);
    // A genuine signature on another body: the body was changed after signing.
    const genuine = stripe.signedEvent("checkout.session.expired", sessionId);
    const tampered = genuine.payload.replace("checkout.session.expired", "checkout.session.completed");
    expect((await webhook(tampered, genuine.signature)).statusCode).toBe(400);
    expect((await orderOf(uid, m)).status).toBe("pending");
    expect((await mine(m)).credits).toBe(1);
    const [{ n }] = await rows<{ n: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS n FROM payment_events WHERE event_id IN (${forged.eventId}, ${genuine.eventId})`,
    );
    expect(n).toBe(0);
    expect(FAKE_WEBHOOK_SECRET).not.toBe("whsec_someone_else");
  });

  it("records a failed payment, and a retry opens a new session that can be paid", async () => {
    const m = await testMember(t);
    const { uid, sessionId } = await startPaying(m, "credits-3");
    const failed = stripe.signedEvent("checkout.session.async_payment_failed", sessionId);
    await webhook(failed.payload, failed.signature);
    const afterFailure = await orderOf(uid, m);
    expect(afterFailure).toMatchObject({ status: "failed", retryable: true, receiptUrl: null });
    expect((await mine(m)).credits).toBe(1);

    const retry = await get(`/ext/payment/retry/${uid}?lang=fr`, m.cookie, sameSite);
    expect(retry.statusCode).toBe(303);
    const second = String(retry.headers.location).split("/").pop() as string;
    expect(second).not.toBe(sessionId);
    expect(stripe.sessions.get(second)?.client_reference_id).toBe(uid);
    expect((await orderOf(uid, m)).status).toBe("pending");
    // The first session expiring now does not cancel the new attempt.
    stripe.expire(sessionId);
    const expired = stripe.signedEvent("checkout.session.expired", sessionId);
    await webhook(expired.payload, expired.signature);
    expect((await orderOf(uid, m)).status).toBe("pending");

    stripe.pay(second);
    await get(`/ext/payment/check/${uid}`, m.cookie);
    expect((await orderOf(uid, m)).status).toBe("paid");
    expect((await mine(m)).credits).toBe(4);
    // A paid order cannot be paid again.
    const again = await get(`/ext/payment/retry/${uid}?lang=fr`, m.cookie, sameSite);
    expect(again.headers.location).toBe("/user/commandes?error=ORDER_STATUS_CONFLICT");
  });

  it("marks an abandoned session cancelled when the buyer comes back after it expired", async () => {
    const m = await testMember(t);
    const { uid, sessionId } = await startPaying(m, "credits-1");
    stripe.expire(sessionId);
    const back = await get(`/ext/payment/check/${uid}?lang=fr&cancelled=1`, m.cookie);
    expect(back.headers.location).toBe(`/user/commandes?order=${uid}&cancelled=1`);
    expect((await orderOf(uid, m)).status).toBe("cancelled");
    // Deleting it: it leaves the list and its address.
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/orders/${uid}`,
      headers: { ...accessHeaders, cookie: m.cookie },
    });
    expect(removed.statusCode).toBe(204);
    expect((await mine(m)).orders.map((o) => o.uid)).not.toContain(uid);
    expect((await get(`/api/orders/${uid}`, m.cookie)).statusCode).toBe(404);
  });

  it("shows Stripe being down as a translated error, and leaves a failed order that can be retried", async () => {
    const m = await testMember(t);
    stripe.failNext(500, 2);
    const response = await get("/ext/payment/price/credits-1?lang=en", m.cookie, sameSite);
    expect(response.headers.location).toBe("/en/user/orders?error=PAYMENT_UNAVAILABLE");
    const list = await mine(m);
    expect(list.orders[0]).toMatchObject({ status: "failed", productId: "credits-1", retryable: true });
  });

  it("refuses what is not for sale, and creates nothing for a link from another site or a visitor", async () => {
    const m = await testMember(t);
    const soon = await get("/ext/payment/price/print-a3", m.cookie, sameSite);
    expect(soon.headers.location).toBe("/user/commandes?error=PRODUCT_UNAVAILABLE");
    const unknown = await get("/ext/payment/price/credits-999", m.cookie, sameSite);
    expect(unknown.headers.location).toBe("/user/commandes?error=ITEM_NOT_FOUND");
    const crossSite = await get("/ext/payment/price/credits-3", m.cookie, { "sec-fetch-site": "cross-site" });
    expect(crossSite.headers.location).toBe("/user/commandes?buy=credits-3");
    expect((await mine(m)).orders).toEqual([]);
    const visitor = await get("/ext/payment/price/credits-3?lang=en");
    expect(visitor.statusCode).toBe(303);
    expect(String(visitor.headers.location)).toMatch(/^\/en\/login\?next=/);
  });
});

describe("who sees which orders", () => {
  it("never shows a member another's order; admins see all of them and the sales totals", async () => {
    const ana = await testMember(t);
    const ben = await testMember(t);
    const admin = await testMember(t, { role: "admin" });
    const { uid, sessionId } = await startPaying(ana, "credits-3");
    stripe.pay(sessionId);
    await get(`/ext/payment/check/${uid}`, ana.cookie);

    expect((await get(`/api/orders/${uid}`, ben.cookie)).statusCode).toBe(404);
    expect((await get(`/api/orders/${uid}`, ben.cookie)).json().error.code).toBe("ORDER_NOT_FOUND");
    expect((await get(`/api/orders/${uid}/receipt`, ben.cookie)).statusCode).toBe(404);
    expect((await get(`/ext/payment/check/${uid}`, ben.cookie)).headers.location).toBe(
      "/user/commandes?error=ORDER_NOT_FOUND",
    );
    expect((await mine(ben)).orders).toEqual([]);
    const del = await t.app.inject({
      method: "DELETE",
      url: `/api/orders/${uid}`,
      headers: { ...accessHeaders, cookie: ben.cookie },
    });
    expect(del.statusCode).toBe(404);
    expect((await get("/api/orders")).statusCode).toBe(401);
    expect((await get("/api/admin/orders", ben.cookie)).statusCode).toBe(403);

    expect((await get(`/api/orders/${uid}`, admin.cookie)).json().status).toBe("paid");
    const sales = (await get("/api/admin/orders", admin.cookie)).json();
    const mineListed = sales.orders.find((o: { uid: string }) => o.uid === uid);
    expect(mineListed.user).toMatchObject({ id: ana.id, email: ana.email });
    // Totals recomputed here from the table itself.
    const [expected] = await rows<{ n: number; amount: number; credits: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS n, sum(amount_cents)::int AS amount, sum(credits)::int AS credits FROM orders WHERE status = 'paid'`,
    );
    expect(sales.totals).toMatchObject({
      paidCount: expected?.n,
      amountCents: expected?.amount,
      creditsSold: expected?.credits,
    });
    expect(sales.totals.netCents + sales.totals.vatCents).toBe(sales.totals.amountCents);
    const paidOnly = (await get("/api/admin/orders?status=paid", admin.cookie)).json();
    expect(paidOnly.orders.every((o: { status: string }) => o.status === "paid")).toBe(true);
    expect((await get("/api/admin/orders?status=nonsense", admin.cookie)).statusCode).toBe(400);
  });
});

async function pdfText(bytes: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const texts: string[] = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const content = await (await doc.getPage(p)).getTextContent();
    texts.push(content.items.map((i) => ("str" in i ? i.str : "")).join("\n"));
  }
  // pdf.js gives the no-break spaces back as plain ones.
  return texts.join("\n").replace(/[\u00a0\u202f]/g, " ");
}

describe("receipts", () => {
  it("makes a PDF receipt with the seller, its number and the amounts HT, TVA and TTC, in French and English", async () => {
    const m = await testMember(t, { firstName: "Louise" });
    const { uid, sessionId } = await startPaying(m, "credits-3");
    const unpaid = await get(`/api/orders/${uid}/receipt`, m.cookie);
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json().error.code).toBe("RECEIPT_NOT_AVAILABLE");
    stripe.pay(sessionId);
    await get(`/ext/payment/check/${uid}`, m.cookie);
    const order = await orderOf(uid, m);

    const fr = await get(`/api/orders/${uid}/receipt?lang=fr`, m.cookie);
    expect(fr.statusCode).toBe(200);
    expect(fr.headers["content-type"]).toBe("application/pdf");
    expect(fr.headers["content-disposition"]).toBe(`attachment; filename="dossard-${order.receiptNumber}.pdf"`);
    const text = await pdfText(fr.rawPayload);
    for (const expected of [
      "Reçu",
      `N° ${order.receiptNumber}`,
      "Dossard SAS",
      "12 rue des Coureurs, 74000 Annecy",
      "SIRET : 123 456 789 00012",
      "N° de TVA intracommunautaire : FR12123456789",
      "Louise Martin",
      "3 crédits poster Dossard",
      "Date : 01/06/2026",
      "Total HT",
      "10,75 €",
      "TVA 20 %",
      "2,15 €",
      "Total TTC",
      "12,90 €",
    ]) {
      expect(text).toContain(expected);
    }
    const en = await pdfText((await get(`/api/orders/${uid}/receipt?lang=en`, m.cookie)).rawPayload);
    for (const expected of ["Receipt", "Total excl. VAT", "€10.75", "VAT 20%", "€2.15", "Total incl. VAT", "€12.90"]) {
      expect(en).toContain(expected);
    }
    const [{ receiptNumber }] = await t.database.db
      .select({ receiptNumber: orders.receiptNumber })
      .from(orders)
      .where(eq(orders.uid, uid));
    expect(order.receiptNumber).toBe(`R-${String(receiptNumber).padStart(6, "0")}`);
  });

  /** The receipt number of each order, as its owner sees it (R-000042 → 42), null when unpaid. */
  const receiptNumbers = async (paying: { uid: string; m: Member }[]) =>
    Promise.all(
      paying.map(async ({ uid, m }) => {
        const label = (await orderOf(uid, m)).receiptNumber;
        return label === null ? null : Number(label.slice(2));
      }),
    );

  /**
   * Until the returned function is called, the database refuses to record the credits of these
   * orders: their payment's transaction fails after the receipt number was taken, as a crash
   * there would.
   */
  async function failingPayments(uids: string[]) {
    const ids = await t.database.db.select({ id: orders.id }).from(orders).where(inArray(orders.uid, uids));
    const list = ids.map((o) => Number(o.id)).join(",");
    await t.database.db.execute(
      sql.raw(`CREATE FUNCTION test_payment_crash() RETURNS trigger LANGUAGE plpgsql AS $$
               BEGIN RAISE EXCEPTION 'crash while recording the payment'; END $$`),
    );
    await t.database.db.execute(
      sql.raw(`CREATE TRIGGER test_payment_crash BEFORE INSERT ON credit_entries FOR EACH ROW
               WHEN (NEW.order_id IN (${list})) EXECUTE FUNCTION test_payment_crash()`),
    );
    return async () => {
      await t.database.db.execute(sql.raw("DROP TRIGGER test_payment_crash ON credit_entries"));
      await t.database.db.execute(sql.raw("DROP FUNCTION test_payment_crash()"));
    };
  }

  const lastReceipt = async () =>
    (await rows<{ n: number | null }>(t.database.db, sql`SELECT max(receipt_number) AS n FROM orders`))[0]?.n ?? 0;

  it("numbers receipts without a gap when a payment's transaction fails after taking its number", async () => {
    const m = await testMember(t);
    const start = await lastReceipt();
    const [first, crashed, next] = [await startPaying(m), await startPaying(m), await startPaying(m)];
    for (const p of [first, crashed, next]) stripe.pay(p.sessionId);
    await get(`/ext/payment/check/${first.uid}`, m.cookie);
    const restore = await failingPayments([crashed.uid]);
    try {
      const failed = await get(`/ext/payment/check/${crashed.uid}`, m.cookie);
      expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      await restore();
    }
    expect((await orderOf(crashed.uid, m)).status).toBe("pending");
    await get(`/ext/payment/check/${next.uid}`, m.cookie);
    // The crashed payment is recorded later (Stripe's webhook, the buyer back): the next number.
    await get(`/ext/payment/check/${crashed.uid}`, m.cookie);
    const paying = [first, next, crashed].map((p) => ({ uid: p.uid, m }));
    expect(await receiptNumbers(paying)).toEqual([start + 1, start + 2, start + 3]);
  });

  it("numbers receipts consecutively when payments are recorded at the same time, some of them failing", async () => {
    const buyers = await Promise.all(Array.from({ length: 3 }, () => testMember(t)));
    const start = await lastReceipt();
    const paying: { uid: string; sessionId: string; m: Member }[] = [];
    for (const m of buyers) for (let i = 0; i < 2; i++) paying.push({ ...(await startPaying(m)), m });
    for (const p of paying) stripe.pay(p.sessionId);
    const crashing = [paying[1], paying[4]].map((p) => p!.uid);
    const restore = await failingPayments(crashing);
    try {
      await Promise.all(paying.map((p) => get(`/ext/payment/check/${p.uid}`, p.m.cookie)));
    } finally {
      await restore();
    }
    const recorded = await receiptNumbers(paying);
    expect(recorded.filter((n) => n === null)).toHaveLength(2);
    expect(recorded.filter((n) => n !== null).sort((a, b) => a! - b!)).toEqual([1, 2, 3, 4].map((n) => start + n));
    await Promise.all(paying.map((p) => get(`/ext/payment/check/${p.uid}`, p.m.cookie)));
    const all = (await receiptNumbers(paying)) as number[];
    expect([...all].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6].map((n) => start + n));
  });
});

describe("without Stripe keys", () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await createTestApp();
  });
  afterAll(() => bare?.close());

  it("shows payment as unavailable and creates no order", async () => {
    const m = await testMember(bare);
    const list = (await bare.app.inject({ method: "GET", url: "/api/orders", headers: { cookie: m.cookie } })).json();
    expect(list.paymentAvailable).toBe(false);
    expect(list.credits).toBe(1);
    const start = await bare.app.inject({
      method: "GET",
      url: "/ext/payment/price/credits-3",
      headers: { cookie: m.cookie, ...sameSite },
    });
    expect(start.headers.location).toBe("/user/commandes?error=PAYMENT_UNAVAILABLE");
    const none = await bare.app.inject({ method: "GET", url: "/api/orders", headers: { cookie: m.cookie } });
    expect(none.json().orders).toEqual([]);
    const hook = await bare.app.inject({
      method: "POST",
      url: "/ext/payment/webhook",
      headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=00" },
      payload: "{}",
    });
    expect(hook.statusCode).toBe(400);
    expect(hook.json().error.code).toBe("WEBHOOK_SIGNATURE_INVALID");
  });
});
