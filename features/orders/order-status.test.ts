import { describe, expect, it } from "vitest";
import { formatMoneyCents } from "../../shared/format.ts";
import { canMove, ORDER_STATUSES, ORDER_TRANSITIONS, RETRYABLE, statusesMovingTo } from "./order-status.ts";
import { PRODUCTS, splitVat } from "./products.ts";

describe("order state machine", () => {
  it("allows exactly the documented moves", () => {
    const allowed = ORDER_STATUSES.flatMap((from) =>
      ORDER_STATUSES.filter((to) => canMove(from, to)).map((to) => `${from}→${to}`),
    );
    expect(allowed.sort()).toEqual(
      [
        "created→pending",
        "created→failed",
        "created→cancelled",
        "created→deleted",
        "pending→pending",
        "pending→paid",
        "pending→failed",
        "pending→cancelled",
        "failed→pending",
        "failed→paid",
        "failed→deleted",
        "cancelled→pending",
        "cancelled→paid",
        "cancelled→deleted",
      ].sort(),
    );
  });

  it("keeps paid and deleted final, and never un-pays or deletes a paid order", () => {
    for (const to of ORDER_STATUSES) {
      expect(canMove("paid", to)).toBe(false);
      expect(canMove("deleted", to)).toBe(false);
    }
    expect(statusesMovingTo("deleted")).not.toContain("paid");
    expect(statusesMovingTo("deleted")).not.toContain("pending");
    expect(statusesMovingTo("paid").sort()).toEqual(["cancelled", "failed", "pending"]);
  });

  it("reaches every status from created, and only unpaid orders can be paid again", () => {
    const seen = new Set<string>(["created"]);
    const queue = ["created"] as (typeof ORDER_STATUSES)[number][];
    while (queue.length) {
      const from = queue.shift() as (typeof ORDER_STATUSES)[number];
      for (const to of ORDER_TRANSITIONS[from]) if (!seen.has(to)) seen.add(to) && queue.push(to);
    }
    expect([...seen].sort()).toEqual([...ORDER_STATUSES].sort());
    expect([...RETRYABLE].sort()).toEqual(["cancelled", "created", "failed", "pending"]);
  });
});

describe("prices", () => {
  it("splits a price including VAT into HT + VAT that add up to it exactly", () => {
    // 20 %: 12,90 € TTC = 10,75 € HT + 2,15 € TVA; 4,90 € = 4,08 € + 0,82 €.
    expect(splitVat(1290, 2000)).toEqual({ netCents: 1075, vatCents: 215 });
    expect(splitVat(490, 2000)).toEqual({ netCents: 408, vatCents: 82 });
    for (let cents = 1; cents < 5000; cents += 7) {
      const { netCents, vatCents } = splitVat(cents, 2000);
      expect(netCents + vatCents).toBe(cents);
      expect(Math.abs(netCents - cents / 1.2)).toBeLessThanOrEqual(0.5 + 1e-9);
    }
    expect(PRODUCTS.filter((p) => p.available).length).toBeGreaterThanOrEqual(3);
  });

  it("writes amounts with two decimals: 25,00 € with a no-break space in French, €25.00 in English", () => {
    expect(formatMoneyCents(2500, "fr", { fixed: true })).toBe("25,00\u00a0€");
    expect(formatMoneyCents(2500, "en", { fixed: true })).toBe("€25.00");
    expect(formatMoneyCents(2500, "fr")).toBe("25\u00a0€");
  });
});
