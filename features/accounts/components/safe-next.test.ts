import { describe, expect, it } from "vitest";
import { safeNext } from "./safe-next.ts";

describe("safeNext", () => {
  it("keeps paths of this site", () => {
    expect(safeNext("/user/profil?tab=1#top")).toBe("/user/profil?tab=1#top");
    expect(safeNext("/en/race/x")).toBe("/en/race/x");
  });

  it.each([
    ["another host", "//evil.example"],
    ["a scheme", "https://evil.example"],
    ["a backslash", "/\\evil.example"],
    ["a tab browsers drop", "/\t/evil.example"],
    ["a line break", "/ok\r\nSet-Cookie: x"],
    ["a relative path", "user/profil"],
    ["nothing", ""],
  ])("drops %s", (_what, value) => {
    expect(safeNext(value)).toBeNull();
  });
});
