import { describe, expect, it } from "vitest";
import { matchName, nameWords, splitFullName } from "./names.ts";

describe("runners' names", () => {
  it.each([
    ["DUPONT Jean-Pierre", "DUPONT", "Jean-Pierre"],
    ["LE GALL Marie Anne", "LE GALL", "Marie Anne"],
    ["D'ALÈS Loïc", "D'ALÈS", "Loïc"],
    ["LECŒUR François", "LECŒUR", "François"],
    ["Élodie GÉRARD", "GÉRARD", "Élodie"],
    ["Jean-Pierre DE LA FONTAINE", "DE LA FONTAINE", "Jean-Pierre"],
    ["DUPONT J.", "DUPONT", "J."],
  ])("splits %s into its surname and first names", (full, lastName, firstName) => {
    expect(splitFullName(full)).toEqual({ lastName, firstName });
  });

  it.each(["Jean Dupont", "DUPONT JEAN", "Martin", "DUPONT", ""])(
    "leaves %j unsplit: the case does not tell",
    (full) => {
      expect(splitFullName(full)).toEqual({ lastName: null, firstName: null });
    },
  );

  it("reads words without accents, case, hyphens or apostrophes", () => {
    expect(nameWords("LE GALL-D'Œuvray Éloïse")).toEqual(["le", "gall", "d", "oeuvray", "eloise"]);
  });

  it.each([
    ["DURAND Camille", "full"],
    ["Camille Durand", "full"],
    ["durand camille", "full"],
    ["DURAND C.", "initials"],
    ["C. DURAND", "initials"],
    ["DURAND", "none"],
    ["DURAND Claire", "none"],
    ["DURANT Camille", "none"],
    ["MARTIN Camille", "none"],
  ] as const)("compares %s with Camille Durand: %s", (line, expected) => {
    expect(matchName(line, { firstName: "Camille", lastName: "Durand" })).toBe(expected);
  });

  it("takes compound and accented names in any order and case, and initials of each first name", () => {
    const member = { firstName: "Jean-François", lastName: "Lemaître" };
    expect(matchName("LEMAITRE Jean François", member)).toBe("full");
    expect(matchName("Jean-François Lemaître", member)).toBe("full");
    expect(matchName("LEMAÎTRE J.-F.", member)).toBe("initials");
    expect(matchName("LEMAITRE JF", member)).toBe("initials");
    expect(matchName("LEMAITRE Jean", member)).toBe("none");
    expect(matchName("LE GALL Marie-Anne", { firstName: "Marie Anne", lastName: "Le Gall" })).toBe("full");
  });

  it("matches nothing for a member without a first name or surname", () => {
    expect(matchName("DURAND Camille", { firstName: "Camille", lastName: "" })).toBe("none");
    expect(matchName("DURAND Camille", { firstName: null, lastName: "Durand" })).toBe("none");
  });
});
