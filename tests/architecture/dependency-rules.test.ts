// The dependency rules (rules.ts) on the real repository, against today's known violations, and on a
// planted bad tree (fixtures/bad-tree) to show that they catch what they should.
//
// The scanner is compared with TypeScript on the whole repository by `npx tsx
// tests/architecture/report.ts --verify` (5 s: too slow to run here each time).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { allowedFeatureImports } from "./allowed-feature-imports.ts";
import { allowedTableReads } from "./allowed-table-reads.ts";
import {
  buildImportGraph,
  buildRepositoryGraph,
  extractImports,
  type ImportGraph,
  isScannedSource,
  listFiles,
} from "./import-graph.ts";
import { knownViolations } from "./known-violations.ts";
import {
  appServerEdges,
  type CheckResult,
  checkGraph,
  edgeKey,
  failures,
  isTestFile,
  layerOf,
  type RuleResult,
  tableOwnerViolations,
} from "./rules.ts";

const HINT =
  "\n(`npx tsx tests/architecture/report.ts` shows the whole picture; rules in tests/architecture/rules.ts)\n";

const expectNoFailures = (result: RuleResult) => {
  const messages = failures(result);
  expect(messages, `${messages.join("\n\n")}\n${HINT}`).toEqual([]);
};

describe("dependency rules on the repository", () => {
  const graph = buildRepositoryGraph();
  const result = checkGraph(graph, knownViolations, allowedFeatureImports, allowedTableReads);

  it("reads the repository's imports (and not the planted bad tree)", () => {
    expect(Object.keys(graph).length).toBeGreaterThan(100);
    expect(Object.keys(graph).filter((file) => file.startsWith("tests/architecture/fixtures/"))).toEqual([]);
    expect(graph["tests/architecture/dependency-rules.test.ts"]).toContainEqual({
      target: "tests/architecture/rules.ts",
      typeOnly: false,
      line: expect.any(Number),
    });
  });

  it("1. a file imports only its own layer or lower ones", () => expectNoFailures(result.layer));
  it("2. features never import server/, app/, seed/ or db/seed/", () => expectNoFailures(result.featureOutward));
  it("3. no import cycle between feature folders outside allowed-feature-imports.ts", () =>
    expectNoFailures(result.featureCycle));
  it("4. no import cycle between files", () => expectNoFailures(result.fileCycle));
  it("5. a feature uses another's tables only through it, outside allowed-table-reads.ts", () =>
    expectNoFailures(result.tableOwner));
  it("gives every allowed table read a reason", () => {
    expect(allowedTableReads.filter((entry) => entry.reason.trim().length < 20)).toEqual([]);
  });
});

describe("dependency rules on a planted bad tree", () => {
  const root = path.join(import.meta.dirname, "fixtures/bad-tree");
  const graph = buildImportGraph(root, listFiles(root).filter(isScannedSource));
  const summary = (result: RuleResult) => result.found.map((v) => `${v.from}:${v.line} -> ${v.to}`);

  it("builds the graph with extensions, without, directory indexes and dynamic imports", () => {
    expect(graph["features/b/b-uses-a.ts"]).toEqual([{ target: "features/a/a-helpers.ts", typeOnly: false, line: 2 }]);
    expect(graph["server/x.ts"]).toEqual([
      { target: "app/index.ts", typeOnly: false, line: 2 },
      { target: "platform/cycle-one.ts", typeOnly: false, line: 5 },
    ]);
    expect(graph["features/a/a.ts"]).toContainEqual({ target: "db/schema.ts", typeOnly: true, line: 3 });
  });

  it("finds exactly the planted violations", () => {
    const result: CheckResult = checkGraph(graph);
    expect(summary(result.layer)).toEqual([
      "features/a/a.ts:3 -> db/schema.ts",
      "shared/uses-feature.ts:2 -> features/a/a-helpers.ts",
    ]);
    expect(summary(result.featureOutward)).toEqual(["features/a/a.ts:4 -> server/x.ts"]);
    expect(summary(result.featureCycle)).toEqual([
      "features/a/a.ts:6 -> features/b/b.ts",
      "features/b/b-uses-a.ts:2 -> features/a/a-helpers.ts",
    ]);
    expect(result.featureCycles.components).toEqual([["a", "b"]]);
    expect(summary(result.tableOwner)).toEqual([
      "features/ratings/import/rating-import.ts:2 -> features/events/events.tables.ts",
      "features/ratings/ratings.ts:2 -> features/events/events.tables.ts",
    ]);
    expect(summary(result.fileCycle)).toEqual([
      "platform/cycle-one.ts:2 -> platform/cycle-two.ts",
      "platform/cycle-three.ts:1 -> platform/cycle-one.ts",
      "platform/cycle-two.ts:1 -> platform/cycle-three.ts",
    ]);
    expect(result.fileCycles.cycles).toEqual([
      ["platform/cycle-one.ts", "platform/cycle-two.ts", "platform/cycle-three.ts", "platform/cycle-one.ts"],
    ]);
    // Every violation is a failure when nothing is known.
    for (const rule of [
      result.layer,
      result.featureOutward,
      result.featureCycle,
      result.fileCycle,
      result.tableOwner,
    ]) {
      expect(rule.unexpected).toEqual(rule.found);
      expect(rule.stale).toEqual([]);
    }
    // Test helpers and fixtures are exempt; app ↔ server is allowed, and listed.
    expect(result.featureOutward.found.map((v) => v.from)).not.toContain("features/a/a.test-helpers.ts");
    expect(appServerEdges(graph)).toEqual({
      appToServer: [{ from: "app/index.ts", to: "server/y.ts", line: 2, typeOnly: false }],
      serverToApp: [{ from: "server/x.ts", to: "app/index.ts", line: 2, typeOnly: false }],
    });
  });

  it("5. table-owner: allows foreign keys, the kernel, documented readers, own tables and tests", () => {
    const found = tableOwnerViolations(graph);
    // ratings.tables.ts (a foreign key), ratings.ts's geo and own imports, search.ts (a documented
    // reader) and the test helper are not reported.
    expect(found.map((v) => v.from)).not.toContain("features/ratings/ratings.tables.ts");
    expect(found.map((v) => v.from)).not.toContain("features/search/search.ts");
    expect(found.map((v) => v.from)).not.toContain("features/ratings/ratings.test-helpers.ts");
    expect(found.map((v) => v.to)).not.toContain("features/geo/geo.tables.ts");
    expect(found.map((v) => v.to)).not.toContain("features/ratings/ratings.tables.ts");
    expect(found.find((v) => v.from === "features/ratings/import/rating-import.ts")?.typeOnly).toBe(true);
    const [message] = failures(checkGraph(graph).tableOwner);
    expect(message).toContain(
      "[table-owner] features/ratings/import/rating-import.ts:2 imports features/events/events.tables.ts (type-only)",
    );
    expect(message).toContain("feature ratings uses the tables of feature events");
    expect(message).toContain("features/events/event-reads.server.ts");
  });

  it("explains each failure: rule, file:line, imported file, what to do", () => {
    const [message] = failures(checkGraph(graph).featureOutward);
    expect(message).toContain("[feature-outward] features/a/a.ts:4 imports server/x.ts");
    expect(message).toContain("Move the piece it needs into platform/");
    const [layer] = failures(checkGraph(graph).layer);
    expect(layer).toContain("features/a/a.ts:3 imports db/schema.ts (type-only)");
    expect(layer).toContain("features/a (layer 2) imports db (layer 3)");
  });

  it("accepts known violations and fails on stale ones, so the lists only shrink", () => {
    const known = {
      layer: ["features/a/a.ts -> db/schema.ts", "shared/uses-feature.ts -> features/a/a-helpers.ts"],
      featureOutward: ["features/a/a.ts -> server/x.ts", "features/a/gone.ts -> server/x.ts"],
      fileCycle: [
        "platform/cycle-one.ts -> platform/cycle-two.ts",
        "platform/cycle-two.ts -> platform/cycle-three.ts",
        "platform/cycle-three.ts -> platform/cycle-one.ts",
      ],
    };
    const allowed = [
      { from: "features/a/a.ts", to: "features/b/b.ts", reason: "test" },
      { from: "features/b/b-uses-a.ts", to: "features/a/a-helpers.ts", reason: "test" },
      { from: "db/schema.ts", to: "features/b/b.ts", reason: "an import that is on no cycle" },
    ];
    const tableReads = [
      { from: "features/ratings/ratings.ts", to: "features/events/events.tables.ts", reason: "test" },
      { from: "features/ratings/import/rating-import.ts", to: "features/events/events.tables.ts", reason: "test" },
      { from: "features/search/search.ts", to: "features/events/events.tables.ts", reason: "a documented reader" },
    ];
    const result = checkGraph(graph, known, allowed, tableReads);
    expect(failures(result.layer)).toEqual([]);
    expect(failures(result.fileCycle)).toEqual([]);
    expect(result.featureOutward.unexpected).toEqual([]);
    expect(result.featureOutward.stale).toEqual([
      { key: "features/a/gone.ts -> server/x.ts", why: "no such import any more" },
    ]);
    expect(result.featureCycle.unexpected).toEqual([]);
    expect(result.featureCycle.stale).toEqual([
      {
        key: "db/schema.ts -> features/b/b.ts",
        why: "the import is still there but no longer breaks this rule",
      },
    ]);
    expect(failures(result.featureCycle)[0]).toContain("tests/architecture/allowed-feature-imports.ts");
    expect(result.tableOwner.unexpected).toEqual([]);
    expect(result.tableOwner.stale).toEqual([
      {
        key: "features/search/search.ts -> features/events/events.tables.ts",
        why: "the import is still there but no longer breaks this rule",
      },
    ]);
    expect(failures(result.tableOwner)[0]).toContain("tests/architecture/allowed-table-reads.ts");
  });

  it("a fix makes the known entry stale", () => {
    const fixed: ImportGraph = structuredClone(graph);
    fixed["platform/cycle-three.ts"] = [];
    const known = {
      layer: [],
      featureOutward: [],
      fileCycle: [edgeKey("platform/cycle-three.ts", "platform/cycle-one.ts")],
    };
    const result = checkGraph(fixed, known);
    expect(result.fileCycle.found).toEqual([]);
    expect(result.fileCycle.stale.map((s) => s.key)).toEqual(["platform/cycle-three.ts -> platform/cycle-one.ts"]);
  });
});

describe("layers and test files", () => {
  it("places files in their layer", () => {
    expect(
      [
        "shared/format.ts",
        "locales/en/x.json",
        "platform/db/client.server.ts",
        "features/events/x.ts",
        "db/schema.ts",
        "db/seed/index.server.ts",
        "seed/index.server.ts",
        "server/main.ts",
        "app/root.tsx",
        "scripts/test.mjs",
        "bench/run.ts",
        "tests/e2e/x.ts",
        "vite.config.ts",
      ].map(layerOf),
    ).toEqual([0, 0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6]);
  });

  it("recognises test files", () => {
    expect(
      [
        "features/events/x.test.ts",
        "features/events/x.api.test.ts",
        "app/routes/x.test.tsx",
        "tests/support/fake-stripe.ts",
        "features/events/x.test-helpers.ts",
        "features/results/import/fixtures/make-fixtures.ts",
        "features/a/__fixtures__/x.ts",
      ].filter((file) => !isTestFile(file)),
    ).toEqual([]);
    expect(["features/events/x.ts", "features/events/latest.ts", "server/testing.ts"].filter(isTestFile)).toEqual([]);
  });
});

describe("the import scanner", () => {
  const specs = (text: string) =>
    extractImports(text).map((s) => `${s.specifier}:${s.line}${s.typeOnly ? ":type" : ""}`);

  it("reads static, type-only, re-exports, side-effect and dynamic imports", () => {
    const text = [
      'import a from "./a.ts";',
      'import type { B } from "./b.ts";',
      'import { type C, d } from "./c.ts";',
      'export * from "./e.ts";',
      'export type { F } from "./f.ts";',
      'import "./g.css";',
      'const h = await import("./h.ts");',
      'type I = typeof import("./i.ts");',
      'type J = import("./j.ts").J;',
      "import {",
      "  k,",
      "  l,",
      '} from "./k.ts";',
      'import type from "./default-named-type.ts";',
      "export { m } from './m.ts';",
      'const n = require("./n.cjs");',
    ].join("\n");
    expect(specs(text)).toEqual([
      "./a.ts:1",
      "./b.ts:2:type",
      "./c.ts:3",
      "./e.ts:4",
      "./f.ts:5:type",
      "./g.css:6",
      "./h.ts:7",
      "./i.ts:8:type",
      "./j.ts:9:type",
      "./k.ts:13",
      "./default-named-type.ts:14",
      "./m.ts:15",
      "./n.cjs:16",
    ]);
  });

  it("ignores imports in comments, strings, templates and regular expressions", () => {
    const text = [
      '// import a from "./a.ts";',
      '/* import b from "./b.ts"; */',
      'const c = "import c from \\"./c.ts\\"";',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal
      'const d = `import d from "./d.ts" ${import.meta.url}`;',
      'const e = /import e from "\\.\\/e.ts"/;',
      "export const f = 1;",
      'export { g } from "./g.ts";',
      'const t = <p>Don\'t import x from "./x.ts"</p>;',
      'const u = () => import("./u.ts");',
    ].join("\n");
    expect(specs(text)).toEqual(["./g.ts:7", "./u.ts:9"]);
  });
});
