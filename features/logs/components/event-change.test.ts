import { describe, expect, it } from "vitest";
import { createI18n } from "../../../shared/i18n/index.ts";
import { describeChange } from "./event-change.ts";

const i18n = createI18n("fr");
const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options) as string;

describe("an event history line in words", () => {
  it("names the changed fields with the editor's labels", () => {
    expect(describeChange("modification", { access: "owner", fields: ["name", "startDate"] }, t, "fr")).toEqual([
      "Champs modifiés : Nom de l'événement, Premier jour",
    ]);
  });

  it("dates a postponement however it was recorded", () => {
    expect(describeChange("postponement", { from: "2026-05-01", to: "2026-06-01" }, t, "fr")).toEqual([
      "Date déplacée du 01/05/26 au 01/06/26",
    ]);
    expect(describeChange("postponement", { originalDate: "2027-04-11", date: "2027-05-02" }, t, "fr")).toEqual([
      "Date déplacée du 11/04/27 au 02/05/27",
    ]);
  });

  it("keeps what no rule knows, its dates in French", () => {
    expect(describeChange("cancellation", { date: "2027-09-26", source: "demo" }, t, "fr")).toEqual([
      "Origine\u00a0: demo",
      "Date\u00a0: 26/09/27",
    ]);
    expect(describeChange("validation", {}, t, "fr")).toEqual([]);
  });
});
