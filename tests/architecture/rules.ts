// The dependency rules, as pure functions over an import graph (import-graph.ts):
//
// 1. layer: a source file imports only its own layer or lower ones (LAYERS below).
// 2. feature-outward: no feature imports server/, app/, seed/ or db/seed/ (a case of rule 1,
//    reported on its own, and only there).
// 3. feature-cycle: the import graph between feature folders has no cycle, except the file imports
//    listed in allowed-feature-imports.ts.
// 4. file-cycle: no import cycle between files.
// 5. table-owner: a feature reads and writes another feature's tables only through that feature's
//    functions (decision 047): a non-test file of feature A importing `features/B/…/*.tables.ts`
//    (B ≠ A) fails unless the importing file is itself a `*.tables.ts` (a foreign key), B is in the
//    shared kernel (TABLE_KERNEL), A is a documented reader or writer of B (DOCUMENTED_TABLE_ACCESS),
//    or the import is listed, with its reason, in allowed-table-reads.ts.
//
// Test files (isTestFile) are exempt: their imports are not checked and are not part of any cycle.
// Known violations (known-violations.ts, allowed-feature-imports.ts, allowed-table-reads.ts) are accepted; a known entry that
// no longer occurs is "stale" and fails as well, so those lists only shrink.
import type { ImportEdge, ImportGraph } from "./import-graph.ts";

export type RuleId = "layer" | "feature-outward" | "feature-cycle" | "file-cycle" | "table-owner";

export const RULE_TITLES: Record<RuleId, string> = {
  layer: "1. layer rule (a file imports only its own layer or lower ones)",
  "feature-outward": "2. features never import server/, app/, seed/ or db/seed/",
  "feature-cycle": "3. no import cycle between feature folders",
  "file-cycle": "4. no import cycle between files",
  "table-owner": "5. a feature reads another's tables only through it",
};

/** One import that breaks a rule. `from -> to` (edgeKey) identifies it in the known lists. */
export interface Violation {
  rule: RuleId;
  from: string;
  /** Line of the first import of `to` in `from`. */
  line: number;
  to: string;
  /** Every import of `to` in `from` is type-only. */
  typeOnly: boolean;
  /** What is wrong, in one sentence. */
  detail: string;
}

/** An import allowed to stay on a cycle between feature folders. */
export interface AllowedFeatureImport {
  from: string;
  to: string;
  reason: string;
}

/** An import of another feature's tables allowed to stay (rule 5), with why. */
export interface AllowedTableRead {
  from: string;
  to: string;
  reason: string;
}

/** Today's violations, accepted until they are fixed (edgeKey strings). */
export interface KnownViolations {
  layer: readonly string[];
  featureOutward: readonly string[];
  fileCycle: readonly string[];
}

export const edgeKey = (from: string, to: string): string => `${from} -> ${to}`;

// ---------------------------------------------------------------------------------------------
// Files: layers, tests, features

/** Layers by folder, lowest first. A path not listed here (root config files, docs…) is layer 6. */
const LAYERS: ReadonlyArray<readonly [prefix: string, layer: number]> = [
  ["shared/", 0],
  ["locales/", 0],
  ["platform/", 1],
  ["features/", 2],
  ["db/seed/", 4],
  ["db/", 3],
  ["seed/", 4],
  ["server/", 5],
  ["app/", 5],
  ["scripts/", 6],
  ["bench/", 6],
  ["tests/", 6],
];
export const TOP_LAYER = 6;
export const LAYER_SUMMARY =
  "shared/ locales/ 0 < platform/ 1 < features/ 2 < db/ 3 < seed/ db/seed/ 4 < server/ app/ 5 < scripts/ bench/ tests/ root config 6";

export function layerOf(file: string): number {
  return LAYERS.find(([prefix]) => file.startsWith(prefix))?.[1] ?? TOP_LAYER;
}

/**
 * The folder a file counts in for the reports: `features/<name>`, `db/seed`, a top folder, or
 * `(root)` for the files at the root.
 */
export function folderOf(file: string): string {
  const feature = featureOf(file);
  if (feature) return `features/${feature}`;
  if (file.startsWith("db/seed/")) return "db/seed";
  const slash = file.indexOf("/");
  return slash === -1 ? "(root)" : file.slice(0, slash);
}

/** `events` for `features/events/…`, undefined outside features/. */
export function featureOf(file: string): string | undefined {
  if (!file.startsWith("features/")) return undefined;
  const end = file.indexOf("/", "features/".length);
  return end === -1 ? undefined : file.slice("features/".length, end);
}

/**
 * Test files: `*.test.ts(x)` (with .api, .pg, .e2e, .isolated…), everything under tests/, test
 * helpers named `*.test-helpers.ts(x)`, and files in a `__fixtures__` or `fixtures` folder.
 */
export function isTestFile(file: string): boolean {
  return (
    /\.test\.(ts|tsx|mts|mjs)$/.test(file) ||
    /\.test-helpers\.(ts|tsx|mts|mjs)$/.test(file) ||
    /\.fixture\.(ts|tsx)$/.test(file) ||
    /(^|\/)test-helpers\.(ts|tsx)$/.test(file) ||
    file === "shared/i18n/test-init.ts" ||
    file.startsWith("tests/") ||
    /(^|\/)(__fixtures__|fixtures)\//.test(file)
  );
}

/** Where a feature must not look: the layers above it that run it. */
export function isOutsideFeatureReach(target: string): boolean {
  return (
    target.startsWith("server/") ||
    target.startsWith("app/") ||
    target.startsWith("seed/") ||
    target.startsWith("db/seed/")
  );
}

// ---------------------------------------------------------------------------------------------
// Edges

/** One file importing another, with its imports of it merged (first line; type-only if all are). */
export interface FileEdge {
  from: string;
  to: string;
  line: number;
  typeOnly: boolean;
}

/** The file-to-file edges of a graph, once per pair, sorted; only from non-test files by default. */
export function fileEdges(graph: ImportGraph, { includeTests = false } = {}): FileEdge[] {
  const edges: FileEdge[] = [];
  for (const from of Object.keys(graph).sort()) {
    if (!includeTests && isTestFile(from)) continue;
    const byTarget = new Map<string, FileEdge>();
    for (const edge of graph[from] as ImportEdge[]) {
      const seen = byTarget.get(edge.target);
      if (seen) {
        seen.line = Math.min(seen.line, edge.line);
        seen.typeOnly &&= edge.typeOnly;
      } else {
        byTarget.set(edge.target, { from, to: edge.target, line: edge.line, typeOnly: edge.typeOnly });
      }
    }
    edges.push(...[...byTarget.values()].sort((a, b) => compare(a.to, b.to)));
  }
  return edges;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const violation = (rule: RuleId, edge: FileEdge, detail: string): Violation => ({
  rule,
  from: edge.from,
  line: edge.line,
  to: edge.to,
  typeOnly: edge.typeOnly,
  detail,
});

// ---------------------------------------------------------------------------------------------
// Rules 1 and 2

/** Rule 1: imports of a higher layer by non-test files (those of rule 2 excepted: reported there). */
export function layerViolations(graph: ImportGraph): Violation[] {
  return fileEdges(graph)
    .filter((edge) => layerOf(edge.to) > layerOf(edge.from) && !isFeatureOutward(edge))
    .map((edge) =>
      violation(
        "layer",
        edge,
        `${folderOf(edge.from)} (layer ${layerOf(edge.from)}) imports ${folderOf(edge.to)} (layer ${layerOf(edge.to)})`,
      ),
    );
}

const isFeatureOutward = (edge: FileEdge) => edge.from.startsWith("features/") && isOutsideFeatureReach(edge.to);

/** Rule 2: features (non-test files) importing server/, app/, seed/ or db/seed/. */
export function featureOutwardViolations(graph: ImportGraph): Violation[] {
  return fileEdges(graph)
    .filter(isFeatureOutward)
    .map((edge) => violation("feature-outward", edge, `feature ${featureOf(edge.from)} imports ${folderOf(edge.to)}/`));
}

// ---------------------------------------------------------------------------------------------
// Strongly connected components (Tarjan, iterative)

/** The strongly connected components of a directed graph, each sorted, in order of their first node. */
export function stronglyConnectedComponents(
  nodes: readonly string[],
  successors: (node: string) => readonly string[],
): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;

  for (const root of nodes) {
    if (index.has(root)) continue;
    const frames: Array<{ node: string; next: readonly string[]; i: number }> = [];
    const open = (node: string) => {
      index.set(node, counter);
      low.set(node, counter);
      counter++;
      stack.push(node);
      onStack.add(node);
      frames.push({ node, next: successors(node), i: 0 });
    };
    open(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      if (frame.i < frame.next.length) {
        const next = frame.next[frame.i++];
        if (!index.has(next)) open(next);
        else if (onStack.has(next)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(next)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component.sort());
      }
    }
  }
  return components.sort((a, b) => compare(a[0], b[0]));
}

/**
 * A shortest cycle through the edge `from -> to` inside `members`: [from, to, …, from]. Undefined
 * when `to` cannot reach `from` there.
 */
export function shortestCycleThrough(
  from: string,
  to: string,
  successors: (node: string) => readonly string[],
  members: ReadonlySet<string>,
): string[] | undefined {
  const previous = new Map<string, string>([[to, to]]);
  const queue = [to];
  for (let q = 0; q < queue.length; q++) {
    const node = queue[q];
    if (node === from) {
      const back = [from];
      for (let at = from; at !== to; ) {
        at = previous.get(at)!;
        back.push(at);
      }
      return [from, ...back.reverse()];
    }
    for (const next of successors(node)) {
      if (members.has(next) && !previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Rule 3: feature folders

export interface FeatureCycleEdge {
  /** Feature names (`events`). */
  from: string;
  to: string;
  /** The file imports that make this edge. */
  imports: FileEdge[];
  /** A shortest cycle of features through this edge: [from, to, …, from]. */
  cycle: string[];
}

export interface FeatureCycles {
  /** Feature folders that import each other, directly or not (components of more than one). */
  components: string[][];
  /** Every edge between two features of a same component: each lies on a cycle. */
  edges: FeatureCycleEdge[];
}

/** The imports between feature folders (non-test files), by feature. */
export function featureGraph(graph: ImportGraph): Map<string, Map<string, FileEdge[]>> {
  const features = new Map<string, Map<string, FileEdge[]>>();
  for (const edge of fileEdges(graph)) {
    const from = featureOf(edge.from);
    const to = featureOf(edge.to);
    if (!from || !to || from === to) continue;
    if (!features.has(from)) features.set(from, new Map());
    const targets = features.get(from)!;
    if (!targets.has(to)) targets.set(to, []);
    targets.get(to)!.push(edge);
  }
  return features;
}

export function featureCycles(graph: ImportGraph): FeatureCycles {
  const features = featureGraph(graph);
  const successors = (feature: string) => [...(features.get(feature)?.keys() ?? [])].sort();
  const nodes = [...features.keys()].sort();
  const components = stronglyConnectedComponents(nodes, successors).filter((c) => c.length > 1);
  const edges: FeatureCycleEdge[] = [];
  for (const component of components) {
    const members = new Set(component);
    for (const from of component) {
      for (const to of successors(from)) {
        if (!members.has(to)) continue;
        const cycle = shortestCycleThrough(from, to, successors, members) ?? [from, to];
        edges.push({ from, to, imports: features.get(from)!.get(to)!, cycle });
      }
    }
  }
  return { components, edges };
}

// ---------------------------------------------------------------------------------------------
// Rule 4: files

export interface FileCycles {
  /** Files that import each other, directly or not (components of more than one, or a file importing itself). */
  components: string[][];
  /** Every edge inside a component (each lies on a cycle), with a shortest cycle through it. */
  edges: Array<{ edge: FileEdge; cycle: string[] }>;
  /**
   * Cycles in import order ([a, b, c, a]) that together go through every edge of the components:
   * for each edge not yet on a listed cycle, a shortest cycle through it.
   */
  cycles: string[][];
}

export function fileCycles(graph: ImportGraph): FileCycles {
  const edges = fileEdges(graph).filter((edge) => !isTestFile(edge.to));
  const out = new Map<string, FileEdge[]>();
  for (const edge of edges) {
    if (!out.has(edge.from)) out.set(edge.from, []);
    out.get(edge.from)!.push(edge);
  }
  const successors = (file: string) => (out.get(file) ?? []).map((edge) => edge.to);
  const nodes = Object.keys(graph)
    .filter((file) => !isTestFile(file))
    .sort();
  const components = stronglyConnectedComponents(nodes, successors).filter(
    (c) => c.length > 1 || successors(c[0]).includes(c[0]),
  );
  const result: FileCycles = { components, edges: [], cycles: [] };
  const covered = new Set<string>();
  for (const component of components) {
    const members = new Set(component);
    for (const from of component) {
      for (const edge of out.get(from) ?? []) {
        if (!members.has(edge.to)) continue;
        const cycle = shortestCycleThrough(from, edge.to, successors, members) ?? [from, edge.to];
        result.edges.push({ edge, cycle });
        if (covered.has(edgeKey(from, edge.to))) continue;
        result.cycles.push(cycle);
        for (let i = 0; i + 1 < cycle.length; i++) covered.add(edgeKey(cycle[i], cycle[i + 1]));
      }
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Rule 5: tables

/**
 * The shared kernel (decision 047): reference data (geo: communes, departments, regions, countries;
 * sports) and identity (the users row, sessions, rate limits), which any feature may read and join.
 * Only identity and accounts write users: a rule no import graph can check.
 */
export const TABLE_KERNEL: ReadonlySet<string> = new Set(["geo", "identity", "sports"]);

/**
 * Features documented as reading (or writing) another's tables directly, by the features whose
 * tables they use: search and seo read the catalogue (the events' tables), community reads members'
 * results, planning, ratings and comments (decision 029), editor is the catalogue's write side.
 */
export const DOCUMENTED_TABLE_ACCESS: Readonly<Record<string, readonly string[]>> = {
  search: ["events"],
  seo: ["events"],
  community: ["comments", "engagement", "events", "ratings", "results"],
  editor: ["events"],
};

/** `features/<name>/…/<file>.tables.ts`: a feature's Drizzle tables. */
export const isTablesFile = (file: string): boolean => file.startsWith("features/") && file.endsWith(".tables.ts");

/** Rule 5: non-test feature files importing another feature's tables outside the kernel and the documented access. */
export function tableOwnerViolations(graph: ImportGraph): Violation[] {
  return fileEdges(graph)
    .filter((edge) => {
      const from = featureOf(edge.from);
      const owner = featureOf(edge.to);
      if (!from || !owner || from === owner || !isTablesFile(edge.to)) return false;
      if (isTablesFile(edge.from)) return false; // a foreign key
      if (TABLE_KERNEL.has(owner)) return false;
      return !DOCUMENTED_TABLE_ACCESS[from]?.includes(owner);
    })
    .map((edge) =>
      violation(
        "table-owner",
        edge,
        `feature ${featureOf(edge.from)} uses the tables of feature ${featureOf(edge.to)}`,
      ),
    );
}

// ---------------------------------------------------------------------------------------------
// Checking against the known lists

export interface RuleResult {
  rule: RuleId;
  /** Every violation in the graph, known or not. */
  found: Violation[];
  /** Violations not in the known list: the failures. */
  unexpected: Violation[];
  /** Known entries (edge keys) that no longer occur, with why. */
  stale: Array<{ key: string; why: string }>;
}

export interface CheckResult {
  layer: RuleResult;
  featureOutward: RuleResult;
  featureCycle: RuleResult;
  fileCycle: RuleResult;
  tableOwner: RuleResult;
  featureCycles: FeatureCycles;
  fileCycles: FileCycles;
}

export const NO_KNOWN_VIOLATIONS: KnownViolations = { layer: [], featureOutward: [], fileCycle: [] };

/** Runs the five rules on a graph and compares them with the known lists. */
export function checkGraph(
  graph: ImportGraph,
  known: KnownViolations = NO_KNOWN_VIOLATIONS,
  allowedFeatureImports: readonly AllowedFeatureImport[] = [],
  allowedTableReads: readonly AllowedTableRead[] = [],
): CheckResult {
  const imports = new Set(fileEdges(graph).map((edge) => edgeKey(edge.from, edge.to)));
  const gone = (key: string) =>
    imports.has(key) ? "the import is still there but no longer breaks this rule" : "no such import any more";

  const features = featureCycles(graph);
  const featureFound = features.edges.flatMap(({ from, to, imports: fileImports, cycle }) =>
    fileImports.map((edge) =>
      violation(
        "feature-cycle",
        edge,
        `features/${from} → features/${to} is on the cycle ${cycle.map((f) => `features/${f}`).join(" → ")}`,
      ),
    ),
  );
  const files = fileCycles(graph);
  const fileFound = files.edges.map(({ edge, cycle }) =>
    violation("file-cycle", edge, `on the import cycle ${cycle.join(" → ")}`),
  );

  return {
    layer: compareWithKnown("layer", layerViolations(graph), known.layer, gone),
    featureOutward: compareWithKnown("feature-outward", featureOutwardViolations(graph), known.featureOutward, gone),
    featureCycle: compareWithKnown(
      "feature-cycle",
      featureFound,
      allowedFeatureImports.map((entry) => edgeKey(entry.from, entry.to)),
      gone,
    ),
    fileCycle: compareWithKnown("file-cycle", fileFound, known.fileCycle, gone),
    tableOwner: compareWithKnown(
      "table-owner",
      tableOwnerViolations(graph),
      allowedTableReads.map((entry) => edgeKey(entry.from, entry.to)),
      gone,
    ),
    featureCycles: features,
    fileCycles: files,
  };
}

function compareWithKnown(
  rule: RuleId,
  found: Violation[],
  known: readonly string[],
  gone: (key: string) => string,
): RuleResult {
  const knownKeys = new Set(known);
  const foundKeys = new Set(found.map((v) => edgeKey(v.from, v.to)));
  const duplicates = known.filter((key, i) => known.indexOf(key) !== i);
  return {
    rule,
    found,
    unexpected: found.filter((v) => !knownKeys.has(edgeKey(v.from, v.to))),
    stale: [
      ...[...knownKeys].filter((key) => !foundKeys.has(key)).map((key) => ({ key, why: gone(key) })),
      ...duplicates.map((key) => ({ key, why: "listed twice" })),
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Messages

const ADVICE: Record<RuleId, string> = {
  layer: `A file imports only its own layer or lower ones (${LAYER_SUMMARY}). Move what it needs down (shared/, platform/), or have the higher layer pass it in.`,
  "feature-outward":
    "A feature must not reach into server/, app/ or the seeds. Move the piece it needs into platform/ or the feature itself, or have server/app hand it over (a parameter, a registration).",
  "feature-cycle":
    "Break the cycle between the feature folders: move the shared piece into one of them, shared/ or platform/, or invert the dependency. An import that must stay for now goes into tests/architecture/allowed-feature-imports.ts with a reason.",
  "file-cycle":
    "Break the cycle: move what the files share into a file both import, or make the import go one way only.",
  "table-owner":
    "Ask the owning feature: call a function it exports (a small read module such as features/events/event-reads.server.ts), or, when importing it would make a cycle between feature folders, a port filled by server/services.server.ts (as features/posters/credits-port.ts). A join that must stay goes into tests/architecture/allowed-table-reads.ts with its reason (decision 047).",
};

const KNOWN_LIST: Record<RuleId, string> = {
  layer: "knownViolations.layer in tests/architecture/known-violations.ts",
  "feature-outward": "knownViolations.featureOutward in tests/architecture/known-violations.ts",
  "feature-cycle": "tests/architecture/allowed-feature-imports.ts",
  "file-cycle": "knownViolations.fileCycle in tests/architecture/known-violations.ts",
  "table-owner": "tests/architecture/allowed-table-reads.ts",
};

/** A violation as a failure message: rule, file:line, imported file, what is wrong and what to do. */
export function formatViolation(v: Violation): string {
  return [
    `[${v.rule}] ${v.from}:${v.line} imports ${v.to}${v.typeOnly ? " (type-only)" : ""}`,
    `  ${v.detail}.`,
    `  ${ADVICE[v.rule]}`,
  ].join("\n");
}

export function formatStale(rule: RuleId, stale: { key: string; why: string }): string {
  return [
    `[${rule}] stale entry "${stale.key}" (${stale.why})`,
    `  Delete it from ${KNOWN_LIST[rule]}: the list only shrinks (or run \`npx tsx tests/architecture/report.ts --write-known\`).`,
  ].join("\n");
}

/** The failures of one rule as messages (unexpected violations, then stale entries). */
export function failures(result: RuleResult): string[] {
  return [...result.unexpected.map(formatViolation), ...result.stale.map((s) => formatStale(result.rule, s))];
}

// ---------------------------------------------------------------------------------------------
// app/ and server/

/** Imports between app/ and server/ (non-test files), both ways: allowed for now, listed to decide. */
export function appServerEdges(graph: ImportGraph): { appToServer: FileEdge[]; serverToApp: FileEdge[] } {
  const edges = fileEdges(graph);
  return {
    appToServer: edges.filter((e) => e.from.startsWith("app/") && e.to.startsWith("server/")),
    serverToApp: edges.filter((e) => e.from.startsWith("server/") && e.to.startsWith("app/")),
  };
}
