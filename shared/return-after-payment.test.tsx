import { afterEach, describe, expect, it } from "vitest";
import { forgetReturnAfterPayment, rememberReturnAfterPayment, returnAfterPayment } from "./return-after-payment.ts";

// In the browser's sessionStorage (jsdom): what the orders tab offers after a paid order.
describe("return after payment", () => {
  afterEach(() => sessionStorage.clear());

  it("keeps a path of this site, gives it back, and forgets it", () => {
    rememberReturnAfterPayment("/en/user/poster/12");
    expect(returnAfterPayment()).toBe("/en/user/poster/12");
    forgetReturnAfterPayment();
    expect(returnAfterPayment()).toBeNull();
  });

  it("never keeps or gives back another site's address", () => {
    for (const path of ["https://evil.example/x", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", ""]) {
      rememberReturnAfterPayment(path);
      expect(returnAfterPayment(), path).toBeNull();
    }
    sessionStorage.setItem("dossard.returnAfterPayment", "//evil.example/x");
    expect(returnAfterPayment()).toBeNull();
  });
});
