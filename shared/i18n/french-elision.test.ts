import { describe, expect, it } from "vitest";
import { elideFrench } from "./french-elision.ts";
import { createInstance } from "./i18next-lite.ts";
import { createI18n, i18nOptions } from "./index.ts";
import { resources } from "./resources.ts";

describe("French contractions before a name", () => {
  it.each([
    ["Autour de Annecy", "Autour d'Annecy"],
    ["Autour de Évian-les-Bains (12 km)", "Autour d'Évian-les-Bains (12 km)"],
    ["Photo de Ultra-Trail du Mont-Blanc", "Photo d'Ultra-Trail du Mont-Blanc"],
    ["Nouvelle course près de Orléans :", "Nouvelle course près d'Orléans :"],
    ["Autour de Le Mans", "Autour du Mans"],
    ["Autour de Les Sables-d'Olonne", "Autour des Sables-d'Olonne"],
    ["Trail à Le Puy-en-Velay", "Trail au Puy-en-Velay"],
    ["Course à Les Abymes", "Course aux Abymes"],
    ["De Annecy à Lyon", "D'Annecy à Lyon"],
  ])("%s → %s", (text, expected) => {
    expect(elideFrench(text)).toBe(expected);
  });

  it.each([
    "Autour de Lyon",
    "Autour de La Rochelle",
    "Autour de L'Isle-Adam",
    "Autour de Haute-Savoie",
    "Autour de Yerres",
    "de A à Z",
    "le samedi 14 juin",
    "Inscriptions à partir du 3 mars",
    "10 km de dénivelé",
    "Le Mans de nuit",
  ])("leaves %s as it is", (text) => {
    expect(elideFrench(text)).toBe(text);
  });

  it("is what French pages and the browser both render, and English is untouched", () => {
    const server = createI18n("fr");
    const browser = createInstance().init(i18nOptions("fr", { fr: resources.fr }));
    for (const i18n of [server, browser]) {
      expect(i18n.t("landing:filters.around", { place: "Annecy" })).toBe("Autour d'Annecy");
      expect(i18n.t("landing:filters.around", { place: "Le Mans" })).toBe("Autour du Mans");
    }
    expect(createI18n("en").t("landing:filters.around", { place: "Annecy" })).toBe("Around Annecy");
  });
});
