import { describe, expect, it } from "vitest";
import { otherLocaleTarget } from "./index.ts";

describe("otherLocaleTarget", () => {
  const from = new URL("https://dossard.test/course/trail-des-lacs?view=map");

  it("is null for a navigation that stays in the language or leaves the site", () => {
    expect(otherLocaleTarget("/", from, "fr")).toBeNull();
    expect(otherLocaleTarget("/courses/trail?page=2", from, "fr")).toBeNull();
    expect(otherLocaleTarget("?view=list", from, "fr")).toBeNull();
    expect(otherLocaleTarget("/english-looking", from, "fr")).toBeNull();
    expect(otherLocaleTarget("https://example.com/en", from, "fr")).toBeNull();
  });

  it("is the other language's URL, resolved against the current one", () => {
    expect(otherLocaleTarget("/en/race/trail-des-lacs", from, "fr")?.href).toBe(
      "https://dossard.test/en/race/trail-des-lacs",
    );
    expect(otherLocaleTarget("/en", from, "fr")?.href).toBe("https://dossard.test/en");
    const english = new URL("https://dossard.test/en/race/x");
    expect(otherLocaleTarget("/course/x", english, "en")?.href).toBe("https://dossard.test/course/x");
    expect(otherLocaleTarget("/en/races/trail", english, "en")).toBeNull();
  });
});
