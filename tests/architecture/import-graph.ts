// The repository's import graph: every in-repo import of every source file (.ts, .tsx, .mjs),
// for the dependency rules (rules.ts, dependency-rules.test.ts, report.ts).
//
// The specifiers come from a small scanner below rather than the TypeScript compiler: the whole
// repository takes a few hundred milliseconds instead of 2–5 s (loading `typescript` and running
// `ts.preProcessFile` on a busy two-core machine). `npx tsx tests/architecture/report.ts --verify`
// compares the scanner with `ts.preProcessFile` on every file (compareWithTypeScript below), and
// dependency-rules.test.ts has the tricky cases (comments, strings, templates, regexes, JSX text).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** One import of an in-repo file. */
export interface ImportEdge {
  /** The imported file, relative to the root (`shared/format.ts`). */
  target: string;
  /**
   * `import type …`, `export type … from`, or `import("x")` in a type position (`typeof import("x")`,
   * `import("x").Foo`). `import { type A }` is not type-only: under verbatimModuleSyntax it still
   * loads the module (`import {} from "x"`).
   */
  typeOnly: boolean;
  /** 1-based line of the specifier. */
  line: number;
}

/** file (relative to the root) → its in-repo imports, in source order. Keys are the scanned files. */
export type ImportGraph = Record<string, ImportEdge[]>;

/** One import specifier as written in a file. */
export interface ImportSpecifier {
  specifier: string;
  typeOnly: boolean;
  line: number;
}

export const SOURCE_FILE = /\.(ts|tsx|mjs)$/;
/** Folders never scanned (their top-level name, or anywhere for node_modules). */
const SKIPPED_FOLDER = /(^|\/)node_modules\/|^(build|\.scratch)\//;
/** The planted bad trees of this folder's own test: not part of the application. */
export const FIXTURES_FOLDER = "tests/architecture/fixtures/";

/** Whether a path (relative to the root) is a source file the rules look at. */
export function isScannedSource(file: string): boolean {
  return (
    SOURCE_FILE.test(file) && !file.endsWith(".d.ts") && !SKIPPED_FOLDER.test(file) && !file.startsWith(FIXTURES_FOLDER)
  );
}

/**
 * Builds the graph of the files `sources` (relative to `root`). `allFiles` are the files an import
 * may land on (sources, but also .json, .css…); it defaults to `sources`.
 */
export function buildImportGraph(
  root: string,
  sources: readonly string[],
  allFiles?: readonly string[],
  options: { onUnresolved?: (file: string, specifier: string, line: number) => void } = {},
): ImportGraph {
  const existing = new Set(allFiles ?? sources);
  for (const file of sources) existing.add(file);
  const graph: ImportGraph = {};
  for (const file of [...sources].sort()) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const edges: ImportEdge[] = [];
    for (const { specifier, typeOnly, line } of extractImports(text)) {
      const target = resolveSpecifier(file, specifier, existing);
      if (target !== undefined) edges.push({ target, typeOnly, line });
      else if (isPathSpecifier(specifier)) options.onUnresolved?.(file, specifier, line);
    }
    graph[file] = edges;
  }
  return graph;
}

/** A specifier naming a file of the repository (relative, or `~/` for the tsconfig paths), not a package. */
export function isPathSpecifier(specifier: string): boolean {
  return /^(\.\.?(\/|$)|~\/)/.test(specifier);
}

/**
 * The files of the repository at `root` as the working tree has them: tracked files and new files
 * not ignored by .gitignore (a `git mv` in progress, a new file not added yet), minus deleted ones.
 */
export function repositoryFiles(root: string): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const files = [...new Set(out.split("\0").filter(Boolean))];
  return files.filter((file) => !SKIPPED_FOLDER.test(file) && fs.existsSync(path.join(root, file)));
}

/** The graph of the repository at `root` (the one this file is in, by default). */
export function buildRepositoryGraph(
  root = repositoryRoot(),
  options: Parameters<typeof buildImportGraph>[3] = {},
): ImportGraph {
  const files = repositoryFiles(root);
  return buildImportGraph(root, files.filter(isScannedSource), files, options);
}

/**
 * The differences between the scanner and TypeScript's own `ts.preProcessFile` on the path
 * specifiers (and their lines) of `files`: empty when the scanner reads them all as TypeScript does.
 * Slow (TypeScript takes seconds to load and run): for a test and `report.ts --verify`.
 */
export async function compareWithTypeScript(root: string, files: readonly string[]): Promise<string[]> {
  const ts = (await import("typescript")).default;
  const differences: string[] = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const lineAt = (pos: number) => text.slice(0, pos).split("\n").length;
    const theirs = ts
      .preProcessFile(text, true, true)
      .importedFiles.filter((ref) => isPathSpecifier(ref.fileName))
      .map((ref) => `${ref.fileName} (line ${lineAt(ref.pos)})`)
      .sort();
    const mine = extractImports(text)
      .filter((spec) => isPathSpecifier(spec.specifier))
      .map((spec) => `${spec.specifier} (line ${spec.line})`)
      .sort();
    for (const missing of theirs.filter((x) => !mine.includes(x)))
      differences.push(`${file}: scanner misses ${missing}`);
    for (const extra of mine.filter((x) => !theirs.includes(x))) differences.push(`${file}: scanner invents ${extra}`);
  }
  return differences;
}

export function repositoryRoot(): string {
  return path.resolve(import.meta.dirname, "../..");
}

/** Every file under `dir`, relative to it, with `/` separators (for a fixture tree). */
export function listFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

const RESOLVE_SUFFIXES = [".ts", ".tsx", ".mjs", ".js", ".json", "/index.ts", "/index.tsx", "/index.mjs", "/index.js"];

/**
 * The in-repo file a specifier of `from` names, or undefined (a package, a generated file such as
 * `./+types/home`, a path that leaves the root). Relative and `~/` (tsconfig paths) specifiers are
 * resolved; an explicit extension is used as written, a missing one or a directory is tried with
 * the usual suffixes, and `.js` also as `.ts`/`.tsx`.
 */
export function resolveSpecifier(from: string, specifier: string, existing: ReadonlySet<string>): string | undefined {
  const bare = specifier.replace(/[?#].*$/, "");
  let joined: string;
  if (bare.startsWith("./") || bare.startsWith("../") || bare === "." || bare === "..") {
    joined = path.posix.join(path.posix.dirname(from), bare);
  } else if (bare.startsWith("~/")) {
    joined = path.posix.normalize(bare.slice(2));
  } else {
    return undefined;
  }
  if (joined.startsWith("../") || joined === "..") return undefined;
  joined = joined.replace(/\/$/, "");
  if (existing.has(joined)) return joined;
  const candidates = RESOLVE_SUFFIXES.map((suffix) => joined + suffix);
  const js = /\.(m?)js$/.exec(joined);
  if (js) {
    const stem = joined.slice(0, -js[0].length);
    candidates.unshift(...(js[1] ? [`${stem}.mts`] : [`${stem}.ts`, `${stem}.tsx`]));
  }
  return candidates.find((candidate) => existing.has(candidate));
}

// ---------------------------------------------------------------------------------------------
// The scanner: tokens of the source with comments dropped, strings kept with their value, the text
// of template literals dropped (their `${…}` parts are scanned as code), regular expressions
// skipped. Then import and export statements are read from the tokens.

interface Token {
  kind: "name" | "string" | "punct";
  /** A name, a punctuator, or a string's value (`\`template\`` and `/regex/` for those, unread). */
  value: string;
  /** Offset in the text (the line is counted only for the specifiers found). */
  pos: number;
}

/** One step of code: blanks, comments, names, numbers, and one-character punctuators. */
const CODE_STEP =
  /[ \t\r\n\u00a0\ufeff]+|\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|[A-Za-z_$\u0080-\uffff][\w$\u0080-\uffff]*|\d[\w.]*|[\s\S]/y;
/** A quoted string up to its closing quote, or up to the end of its line (an apostrophe in JSX text). */
const DOUBLE_QUOTED = /"((?:[^"\\\n]|\\[\s\S])*)"?/y;
const SINGLE_QUOTED = /'((?:[^'\\\n]|\\[\s\S])*)'?/y;
/** A template literal's text, up to `${` or the closing backtick. */
const TEMPLATE_TEXT = /(?:[^`\\$]|\\[\s\S]|\$(?!\{))*(`|\$\{|$)/y;
/** A regular expression literal's body and flags (from after the opening slash). */
const REGEX_BODY = /(?:[^\\/\n[]|\\.|\[(?:[^\\\]\n]|\\.)*\]?)*\/?[\w$]*/y;
/** After these names a `/` starts a regular expression, not a division. */
const KEYWORDS_BEFORE_EXPRESSION = new Set([
  "return",
  "typeof",
  "case",
  "do",
  "else",
  "in",
  "instanceof",
  "new",
  "delete",
  "void",
  "throw",
  "yield",
  "await",
  "of",
]);

function unescapeString(raw: string): string {
  return raw.includes("\\") ? raw.replace(/\\(\n|.)/g, (_, c: string) => (c === "\n" ? "" : c)) : raw;
}

/**
 * The tokens of a source text with comments dropped, strings kept with their value, the text of
 * template literals dropped (their `${…}` parts are tokenized as code, between `(` and `)`), and
 * regular expressions skipped.
 */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  /** Open braces: true for the `${` of a template literal, false for an ordinary `{`. */
  const braces: boolean[] = [];

  const slashStartsRegex = (): boolean => {
    const last = tokens[tokens.length - 1];
    if (!last) return true;
    if (last.kind === "string") return false;
    if (last.kind === "name") return KEYWORDS_BEFORE_EXPRESSION.has(last.value);
    // `</` closes a JSX element; after `)`, `]`, `}` it is a division (or an unlikely regex).
    return !(last.value === ")" || last.value === "]" || last.value === "}" || last.value === "<");
  };
  /** Reads a template literal's text from `i` (after its backtick or the `}` of a substitution). */
  const templateText = (): void => {
    const start = i;
    TEMPLATE_TEXT.lastIndex = i;
    const match = TEMPLATE_TEXT.exec(text) as RegExpExecArray;
    i = TEMPLATE_TEXT.lastIndex;
    if (match[1] === "${") {
      braces.push(true);
      tokens.push({ kind: "punct", value: "(", pos: i - 2 });
    } else {
      tokens.push({ kind: "string", value: "`template`", pos: start });
    }
  };

  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */ || c === 39 /* ' */) {
      const re = c === 34 ? DOUBLE_QUOTED : SINGLE_QUOTED;
      re.lastIndex = i;
      const match = re.exec(text) as RegExpExecArray;
      tokens.push({ kind: "string", value: unescapeString(match[1]), pos: i });
      i = re.lastIndex;
    } else if (c === 96 /* ` */) {
      i++;
      templateText();
    } else if (c === 123 /* { */) {
      braces.push(false);
      tokens.push({ kind: "punct", value: "{", pos: i++ });
    } else if (c === 125 /* } */) {
      if (braces.pop()) {
        tokens.push({ kind: "punct", value: ")", pos: i++ });
        templateText();
      } else {
        tokens.push({ kind: "punct", value: "}", pos: i++ });
      }
    } else if (
      c === 47 /* / */ &&
      text.charCodeAt(i + 1) !== 47 &&
      text.charCodeAt(i + 1) !== 42 &&
      slashStartsRegex()
    ) {
      REGEX_BODY.lastIndex = i + 1;
      REGEX_BODY.exec(text);
      tokens.push({ kind: "string", value: "/regex/", pos: i });
      i = REGEX_BODY.lastIndex;
    } else {
      CODE_STEP.lastIndex = i;
      const match = CODE_STEP.exec(text) as RegExpExecArray;
      const step = match[0];
      const first = step.charCodeAt(0);
      if (step.length > 1 || first > 127 || /\w|\$/.test(step)) {
        if (first === 47 /* comment */ || first <= 32 || first === 0xa0 || first === 0xfeff) {
          // blanks and comments
        } else if (first >= 48 && first <= 57) {
          tokens.push({ kind: "punct", value: "0", pos: i });
        } else {
          tokens.push({ kind: "name", value: step, pos: i });
        }
      } else if (first > 32) {
        tokens.push({ kind: "punct", value: step, pos: i });
      }
      i = CODE_STEP.lastIndex;
    }
  }
  return tokens;
}

/** Every import specifier of a source text: static, re-export, dynamic, `import type`, `require("x")`. */
export function extractImports(text: string): ImportSpecifier[] {
  const tokens = tokenize(text);
  const found: ImportSpecifier[] = [];
  const at = (k: number): Token | undefined => tokens[k];
  const isPunct = (k: number, value: string) => at(k)?.kind === "punct" && at(k)?.value === value;
  const isName = (k: number, value: string) => at(k)?.kind === "name" && at(k)?.value === value;
  const isSpecifier = (k: number) => {
    const t = at(k);
    return t?.kind === "string" && t.value !== "`template`" && t.value !== "/regex/";
  };

  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k];
    if (token.kind !== "name") continue;
    if (token.value !== "import" && token.value !== "export" && token.value !== "require") continue;
    if (isPunct(k - 1, ".") || isPunct(k + 1, ".")) continue; // import.meta, x.import, require.resolve

    if (token.value === "require" || isPunct(k + 1, "(")) {
      // import("x"): a dynamic import, or an import type (typeof import("x"), import("x").Foo); require("x").
      if (!isPunct(k + 1, "(") || !isSpecifier(k + 2)) continue;
      if (!(isPunct(k + 3, ")") || (token.value === "import" && isPunct(k + 3, ",")))) continue;
      let close = k + 3;
      if (isPunct(close, ",")) {
        let depth = 0;
        for (close = k + 4; close < tokens.length; close++) {
          const t = tokens[close];
          if (t.kind !== "punct") continue;
          if (t.value === "(" || t.value === "{" || t.value === "[") depth++;
          else if (t.value === ")" || t.value === "}" || t.value === "]") {
            if (depth === 0) break;
            depth--;
          }
        }
      }
      const member = isPunct(close + 1, ".") ? at(close + 2) : undefined;
      const typeOnly =
        token.value === "import" &&
        (isName(k - 1, "typeof") || (member?.kind === "name" && !["then", "catch", "finally"].includes(member.value)));
      const spec = at(k + 2) as Token;
      found.push({ specifier: spec.value, typeOnly, line: spec.pos });
      continue;
    }
    if (token.value === "import" && isSpecifier(k + 1)) {
      const spec = at(k + 1) as Token;
      found.push({ specifier: spec.value, typeOnly: false, line: spec.pos }); // import "x"
      continue;
    }

    // `type` right after the keyword makes the statement type-only, unless it is a default import
    // named `type` (`import type from "x"`, `import type, { a } from "x"`).
    const typeWord = isName(k + 1, "type") && !(isName(k + 2, "from") && isSpecifier(k + 3)) && !isPunct(k + 2, ",");
    const clauseStart = typeWord ? k + 2 : k + 1;
    // Only `export { … } from`, `export * from`, `export type { … } from` re-export; `export const …` does not.
    if (token.value === "export" && !isPunct(clauseStart, "{") && !isPunct(clauseStart, "*")) continue;
    let depth = 0;
    for (let j = clauseStart; j < tokens.length && j < clauseStart + 5000; j++) {
      const t = tokens[j];
      if (depth === 0 && t.kind === "name" && t.value === "from" && isSpecifier(j + 1)) {
        const spec = at(j + 1) as Token;
        found.push({ specifier: spec.value, typeOnly: typeWord, line: spec.pos });
        break;
      }
      // Between the keyword and `from` come only bindings, `as`, `type`, braces, commas and `*`
      // (and quoted names: `export { "a-b" as c } from …`).
      if (t.kind === "punct" && t.value === "{") depth++;
      else if (t.kind === "punct" && t.value === "}") depth--;
      else if (t.kind === "punct" && t.value !== "," && t.value !== "*") break;
      if (depth < 0) break;
    }
  }
  // `line` holds offsets so far: count the lines, in one pass.
  found.sort((x, y) => x.line - y.line);
  let line = 1;
  let counted = 0;
  for (const spec of found) {
    for (let nl = text.indexOf("\n", counted); nl !== -1 && nl < spec.line; nl = text.indexOf("\n", nl + 1)) {
      line++;
      counted = nl + 1;
    }
    spec.line = line;
  }
  return found;
}
