import { describe, expect, it } from "vitest";
import { SAFE_NEXT, UNSAFE_NEXT } from "./safe-next.cases.ts";
import { safeNext } from "./safe-next.ts";

describe("safeNext", () => {
  it.each(SAFE_NEXT)("keeps %s as %s", (value, expected) => {
    expect(safeNext(value)).toBe(expected);
  });

  it.each(UNSAFE_NEXT)("drops %s", (_what, value) => {
    expect(safeNext(value)).toBeNull();
  });

  it("only ever returns a path that a browser resolves on this site", () => {
    const site = "https://dossard.fr";
    for (const [, value] of [...UNSAFE_NEXT, ...SAFE_NEXT.map(([v]) => ["", v] as [string, string])]) {
      const next = safeNext(value);
      if (next !== null) expect(new URL(next, site).origin).toBe(site);
    }
  });
});
