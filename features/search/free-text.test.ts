import { describe, expect, it } from "vitest";
import { broaderSearches } from "./broader.ts";
import {
  editDistance,
  namesARace,
  placeSpans,
  readText,
  tokenize,
  typoCorrections,
  vocabularyOf,
} from "./free-text.ts";

const TODAY = "2026-11-24"; // a Tuesday

/** What readText understood, in a compact form, and the words it left. */
function read(text: string) {
  const { understood, rest } = readText(text, TODAY);
  return {
    parts: understood.map((u) => {
      switch (u.kind) {
        case "sport":
          return `sport:${u.sport}`;
        case "distance":
          return `distance:${u.distance}`;
        case "distanceRange":
          return `km:${u.min}-${u.max}`;
        default:
          return `dates:${u.from}..${u.to}`;
      }
    }),
    rest: rest.map((t) => t.raw).join(" "),
  };
}

describe("readText: what people type in the search box", () => {
  it.each([
    ["trail annecy", ["sport:trail"], "annecy"],
    ["marathon lyon octobre", ["sport:marathon", "dates:2027-10-01..2027-10-31"], "lyon"],
    ["10 km nantes", ["distance:10k"], "nantes"],
    ["10km Nantes", ["distance:10k"], "Nantes"],
    ["semi-marathon de Bordeaux", ["sport:half_marathon"], "de Bordeaux"],
    ["semi marathn bordeaux en mars", ["sport:half_marathon", "dates:2027-03-01..2027-03-31"], "bordeaux en"],
    ["Ultra-Trail du Mont-Blanc", ["sport:ultra_trail"], "du Mont Blanc"],
    ["trial chamonix", ["sport:trail"], "chamonix"],
    ["course à pied Rennes décembre", ["sport:running", "dates:2026-12-01..2026-12-31"], "Rennes"],
    ["triathlon annecy juin 2027", ["sport:triathlon", "dates:2027-06-01..2027-06-30"], "annecy"],
    ["VTT Vosges", ["sport:mtb"], "Vosges"],
    ["trail 25 km", ["km:23.5-26.5", "sport:trail"], ""],
    ["21,1 km Paris", ["distance:half"], "Paris"],
    ["running this weekend", ["sport:running", "dates:2026-11-28..2026-11-29"], "this"],
    ["course ce week-end", ["sport:running", "dates:2026-11-28..2026-11-29"], "ce"],
    ["cross 2027", ["dates:2027-01-01..2027-12-31"], "cross"],
    ["Trail des Aiguilles Rouges", ["sport:trail"], "des Aiguilles Rouges"],
    ["course trail corse", ["sport:trail"], "corse"],
    ["foulées de la plage", [], "foulées de la plage"],
    ["38000", [], "38000"],
  ])("%s", (text, parts, rest) => {
    expect(read(text)).toEqual({ parts, rest });
  });

  it("takes this year's month while it is not over, next year's once it is", () => {
    expect(read("novembre").parts).toEqual(["dates:2026-11-01..2026-11-30"]);
    expect(read("janvier").parts).toEqual(["dates:2027-01-01..2027-01-31"]);
  });

  it("forgives typos on long words only", () => {
    expect(read("trialthon").parts).toEqual(["sport:triathlon"]);
    expect(read("octobr").parts).toEqual(["dates:2027-10-01..2027-10-31"]);
    expect(read("corse").parts).toEqual([]);
    expect(read("marche").parts).toEqual([]);
  });
});

describe("place spans", () => {
  it("lists every run of words that could be a place, longest first, articles starting names allowed", () => {
    const tokens = tokenize("le mans et la rochelle");
    expect(placeSpans(tokens).map((s) => s.slug)).toEqual([
      "le-mans-et-la-rochelle",
      "mans-et-la-rochelle",
      "le-mans",
      "la-rochelle",
      "mans",
      "rochelle",
    ]);
  });

  it("spells apostrophes and dashes as commune slugs do", () => {
    expect(placeSpans(tokenize("L'Île-d'Olonne"))[0].slug).toBe("l-ile-d-olonne");
  });

  it("reads a place after 'des' or 'du' as part of a race's name", () => {
    const tokens = tokenize("trail des aiguilles");
    expect(namesARace(tokens, 2)).toBe(true);
    expect(namesARace(tokenize("trail annecy"), 1)).toBe(false);
  });
});

describe("editDistance", () => {
  it("counts a swap of two letters as one", () => {
    expect(editDistance("trial", "trail")).toBe(1);
    expect(editDistance("anecy", "annecy")).toBe(1);
    expect(editDistance("paris", "lyon", 2)).toBe(3);
  });
});

describe("broader searches", () => {
  it("widens the radius first, then drops one filter at a time, then several", () => {
    const steps = broaderSearches({
      q: "aiguilles",
      sport: ["trail"],
      place: "74010",
      radius: 30,
      from: "2027-06-01",
      to: "2027-06-30",
    });
    expect(steps.map((s) => s.changes.join("+"))).toEqual([
      "radius",
      "radius",
      "text",
      "dates",
      "place",
      "sport",
      "text+dates",
      "text+dates+place",
      "text+dates+place+sport",
    ]);
    expect(steps[0].query).toMatchObject({ radius: 50, place: "74010", sport: ["trail"] });
    expect(steps[2].query.q).toBeUndefined();
    expect(steps[4].query).not.toHaveProperty("place");
    expect(steps[4].query).not.toHaveProperty("radius");
    expect(steps[6].query).toEqual({ sport: ["trail"], place: "74010", radius: 30 });
  });

  it("offers nothing for a search with no filter", () => {
    expect(broaderSearches({})).toEqual([]);
  });
});

describe("typoCorrections: the catalogue's words a misspelt word stands for", () => {
  const vocabulary = vocabularyOf([
    "echappee",
    "echappees",
    "lozere",
    "course",
    "marathon",
    "marathons",
    "montagne",
    "foulees",
    "chemin",
  ]);

  it("forgives two neighbouring letters swapped, even in the first two letters", () => {
    expect(typoCorrections("ecahppee", vocabulary)).toEqual(["echappee"]);
    expect(typoCorrections("cehappee", vocabulary)).toEqual(["echappee"]);
    expect(typoCorrections("lozree", vocabulary)).toEqual(["lozere"]);
    expect(typoCorrections("foulese", vocabulary)).toEqual(["foulees"]);
  });

  it("forgives a missing, extra or wrong letter in long words only, keeping the first letter", () => {
    expect(typoCorrections("marathn", vocabulary)).toEqual(["marathon"]);
    expect(typoCorrections("montagme", vocabulary)).toEqual(["montagne"]);
    // Two typos from 9 letters.
    expect(typoCorrections("maratthonns", vocabulary)).toEqual(["marathons"]);
    expect(typoCorrections("xchappee", vocabulary)).toEqual([]);
    // Short words are too close to each other: a place is not a sport.
    expect(typoCorrections("corse", vocabulary)).toEqual([]);
    expect(typoCorrections("lozee", vocabulary)).toEqual([]);
    expect(typoCorrections("chemi", vocabulary)).toEqual([]);
  });

  it("gives the closest words only, and nothing under 5 letters", () => {
    // "echappee" is one swap away, "echappees" two typos away: only the first.
    expect(typoCorrections("ecahppee", vocabulary)).not.toContain("echappees");
    expect(typoCorrections("cuorse", vocabulary)).toEqual(["course"]);
    expect(typoCorrections("mnot", vocabularyOf(["mont"]))).toEqual([]);
  });
});
