import { describe, expect, it } from "vitest";
import {
  filterOptions,
  nextEnabledIndex,
  normalizeText,
  optionsForParent,
  sameValue,
  toggleValue,
  valueList,
} from "./select-options.ts";

const options = [
  { value: "idf", label: "Île-de-France" },
  { value: "ara", label: "Auvergne-Rhône-Alpes" },
  { value: "evry", label: "Évry", parent: "idf" },
  { value: "lyon", label: "Lyon", parent: "ara" },
];

describe("filterOptions", () => {
  it("ignores case and accents", () => {
    expect(normalizeText("  ÉvrY ")).toBe("evry");
    expect(filterOptions(options, "ile").map((o) => o.value)).toEqual(["idf"]);
    expect(filterOptions(options, "RHONE").map((o) => o.value)).toEqual(["ara"]);
    expect(filterOptions(options, "évr").map((o) => o.value)).toEqual(["evry"]);
  });

  it("keeps everything for an empty query", () => {
    expect(filterOptions(options, " ")).toHaveLength(4);
  });
});

describe("optionsForParent", () => {
  it("keeps options of the parent value and options without parent", () => {
    expect(optionsForParent(options, "idf").map((o) => o.value)).toEqual(["idf", "ara", "evry"]);
  });

  it("keeps every option without a parent value", () => {
    expect(optionsForParent(options, null)).toHaveLength(4);
    expect(optionsForParent(options, undefined)).toHaveLength(4);
  });
});

describe("values", () => {
  it("compares values as text", () => {
    expect(sameValue(3, "3")).toBe(true);
    expect(sameValue(null, undefined)).toBe(true);
    expect(sameValue(0, null)).toBe(false);
  });

  it("lists and toggles values", () => {
    expect(valueList(null)).toEqual([]);
    expect(valueList("a")).toEqual(["a"]);
    expect(valueList(["a", 2])).toEqual(["a", 2]);
    expect(toggleValue(["a", "b"], "a")).toEqual(["b"]);
    expect(toggleValue(["a"], "c")).toEqual(["a", "c"]);
  });
});

describe("nextEnabledIndex", () => {
  const items = [{}, { disabled: true }, {}, { disabled: true }];

  it("skips disabled items", () => {
    expect(nextEnabledIndex(items, 0, 1)).toBe(2);
    expect(nextEnabledIndex(items, 2, -1)).toBe(0);
    expect(nextEnabledIndex(items, -1, 1)).toBe(0);
  });

  it("stays in place at the edges without wrapping, wraps otherwise", () => {
    expect(nextEnabledIndex(items, 2, 1, false)).toBe(2);
    expect(nextEnabledIndex(items, 2, 1, true)).toBe(0);
    expect(nextEnabledIndex([{ disabled: true }], -1, 1)).toBe(-1);
  });
});
