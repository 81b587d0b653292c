/**
 * i18n check (`npx tsx scripts/check-i18n.ts`, exit code 1 with a report on failure):
 *
 * `npx tsx scripts/check-i18n.ts [root]` checks another folder laid out the same way.
 *
 * 1. Catalogues: every locale has the same namespaces (locales/<lang>/<ns>.json) and the same
 *    keys, each message uses the same {{variables}} in every language, and no message is empty.
 *    Plural forms (key_one, key_other, key_many…) count as one key, since languages need
 *    different forms; their variables are compared as a whole.
 * 2. Sources: app/**\/*.tsx, features/**\/*.tsx and shared/**\/*.tsx (tests excluded) are parsed with the TypeScript
 *    compiler and searched for user-facing text that bypasses i18n: JSX text with letters, and
 *    string literals in placeholder, title, alt, aria-label and label attributes. Symbols,
 *    numbers and unit words ("·", "—", "×", "12", "D+", "km") are allowed. A comment containing
 *    `i18n-ignore` on the line before a node lets it through.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

// ---------------------------------------------------------------------------------------------
// 1. Catalogues

export type CatalogueIssueKind = "missing-namespace" | "missing-key" | "variables" | "empty" | "invalid";

export interface CatalogueIssue {
  kind: CatalogueIssueKind;
  locale: string;
  namespace: string;
  key?: string;
  message: string;
}

/** Parsed catalogues by locale, then namespace: `{ fr: { common: {...} }, en: { common: {...} } }`. */
export type Catalogues = Record<string, Record<string, unknown>>;

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** Leaf values of a nested catalogue by dotted key path ("errors.generic"); arrays by index. */
export function flattenCatalogue(value: unknown, prefix = ""): Map<string, unknown> {
  const leaves = new Map<string, unknown>();
  if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      const path = prefix ? `${prefix}.${key}` : key;
      for (const [leafKey, leaf] of flattenCatalogue(child, path)) leaves.set(leafKey, leaf);
    }
    if (Object.keys(value).length === 0 && prefix) leaves.set(prefix, value);
  } else {
    leaves.set(prefix, value);
  }
  return leaves;
}

/** Interpolation variables of a message: "{{count}} km, {{ date, short }}" → {"count", "date"}. */
export function interpolationVariables(message: string): Set<string> {
  const names = new Set<string>();
  for (const match of message.matchAll(/\{\{-?\s*([^}\s,]+)[^}]*\}\}/g)) names.add(match[1]);
  return names;
}

interface KeyInfo {
  /** The message keys behind this logical key (several for plural forms). */
  keys: string[];
  variables: Set<string>;
}

/** Logical keys of a namespace: plural forms grouped under their base key. */
function logicalKeys(leaves: Map<string, unknown>): Map<string, KeyInfo> {
  const result = new Map<string, KeyInfo>();
  for (const [key, value] of leaves) {
    const base = key.replace(PLURAL_SUFFIX, "");
    const info = result.get(base) ?? { keys: [], variables: new Set<string>() };
    info.keys.push(key);
    if (typeof value === "string") for (const name of interpolationVariables(value)) info.variables.add(name);
    result.set(base, info);
  }
  return result;
}

const sorted = (set: Iterable<string>) => [...set].sort().join(", ") || "none";

/** Compares every locale's catalogues with each other; the first locale given is the reference. */
export function checkCatalogues(catalogues: Catalogues): CatalogueIssue[] {
  const issues: CatalogueIssue[] = [];
  const locales = Object.keys(catalogues);
  const namespaces = new Set(locales.flatMap((locale) => Object.keys(catalogues[locale])));

  for (const namespace of [...namespaces].sort()) {
    const present = locales.filter((locale) => Object.hasOwn(catalogues[locale], namespace));
    for (const locale of locales.filter((l) => !present.includes(l))) {
      issues.push({
        kind: "missing-namespace",
        locale,
        namespace,
        message: `namespace "${namespace}" exists in ${present.join(", ")} but not in ${locale}`,
      });
    }

    const leavesByLocale = new Map(present.map((locale) => [locale, flattenCatalogue(catalogues[locale][namespace])]));
    const keysByLocale = new Map(present.map((locale) => [locale, logicalKeys(leavesByLocale.get(locale)!)]));

    for (const locale of present) {
      for (const [key, value] of leavesByLocale.get(locale)!) {
        if (typeof value === "string" && value.trim() === "") {
          issues.push({ kind: "empty", locale, namespace, key, message: `empty message` });
        } else if (typeof value !== "string") {
          issues.push({
            kind: "invalid",
            locale,
            namespace,
            key,
            message: `not a text message: ${JSON.stringify(value)}`,
          });
        }
      }
    }

    const allKeys = new Set(present.flatMap((locale) => [...keysByLocale.get(locale)!.keys()]));
    for (const key of [...allKeys].sort()) {
      const owners = present.filter((locale) => keysByLocale.get(locale)!.has(key));
      for (const locale of present.filter((l) => !owners.includes(l))) {
        issues.push({
          kind: "missing-key",
          locale,
          namespace,
          key,
          message: `missing (present in ${owners.join(", ")})`,
        });
      }
      const [reference, ...others] = owners;
      const expected = keysByLocale.get(reference)!.get(key)!.variables;
      for (const locale of others) {
        const actual = keysByLocale.get(locale)!.get(key)!.variables;
        if (sorted(actual) !== sorted(expected)) {
          issues.push({
            kind: "variables",
            locale,
            namespace,
            key,
            message: `variables {{${sorted(actual)}}} differ from ${reference}'s {{${sorted(expected)}}}`,
          });
        }
      }
    }
  }
  return issues;
}

/** Reads locales/<lang>/<namespace>.json; unreadable JSON is reported, not thrown. */
export function loadCatalogues(localesDir: string): { catalogues: Catalogues; issues: CatalogueIssue[] } {
  const catalogues: Catalogues = {};
  const issues: CatalogueIssue[] = [];
  const locales = readdirSync(localesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    // French is the reference language: it comes first.
    .sort((a, b) => (a === "fr" ? -1 : b === "fr" ? 1 : a.localeCompare(b)));
  for (const locale of locales) {
    catalogues[locale] = {};
    for (const file of readdirSync(join(localesDir, locale))
      .filter((name) => name.endsWith(".json"))
      .sort()) {
      const namespace = file.slice(0, -".json".length);
      try {
        catalogues[locale][namespace] = JSON.parse(readFileSync(join(localesDir, locale, file), "utf8"));
      } catch (error) {
        catalogues[locale][namespace] = {};
        issues.push({ kind: "invalid", locale, namespace, message: `unreadable JSON: ${(error as Error).message}` });
      }
    }
  }
  return { catalogues, issues };
}

// ---------------------------------------------------------------------------------------------
// 2. Hard-coded text in JSX

export const USER_FACING_ATTRIBUTES = ["placeholder", "title", "alt", "aria-label", "label"] as const;

/** Words that read the same in both languages: units and race notation. */
export const ALLOWED_WORDS = new Set(["D+", "D-", "km", "m", "h", "min", "s", "km/h", "min/km", "/km", "kg", "cm"]);

export interface HardcodedText {
  file: string;
  line: number;
  column: number;
  kind: "jsx-text" | "attribute";
  attribute?: string;
  text: string;
}

const LETTER = /\p{L}/u;
/** Punctuation around a word, "(km)" or "km,": everything but letters, digits, "+" and "/". */
const EDGE_PUNCTUATION = /^[^\p{L}\p{N}+/]+|[^\p{L}\p{N}+/]+$/gu;

/** Whether a piece of text has words that need translating (letters beyond the allowed units). */
export function needsTranslation(text: string): boolean {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .some(
      (token) =>
        LETTER.test(token) && !ALLOWED_WORDS.has(token) && !ALLOWED_WORDS.has(token.replace(EDGE_PUNCTUATION, "")),
    );
}

const IGNORE_COMMENT = /(\/\/|\/\*)\s*i18n-ignore\b/;

/** Finds user-facing literals in the JSX of one source file. */
export function findHardcodedText(source: string, fileName = "file.tsx"): HardcodedText[] {
  const sourceFile = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const lines = source.split(/\r?\n/);
  const found: HardcodedText[] = [];

  const report = (position: number, kind: HardcodedText["kind"], text: string, attribute?: string) => {
    const { line, character } = sourceFile.getLineAndCharacterOfPosition(position);
    if (line > 0 && IGNORE_COMMENT.test(lines[line - 1])) return;
    found.push({
      file: fileName,
      line: line + 1,
      column: character + 1,
      kind,
      text,
      ...(attribute ? { attribute } : {}),
    });
  };

  /** A string written as is: "x", `x`, or either inside braces. */
  const literalText = (node: ts.Node | undefined): string | undefined => {
    if (!node) return undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isJsxExpression(node)) return literalText(node.expression);
    if (ts.isParenthesizedExpression(node)) return literalText(node.expression);
    return undefined;
  };

  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      const text = node.text.replace(/\s+/g, " ").trim();
      if (text && needsTranslation(text)) {
        const offset = node.text.search(/\S/);
        report(node.pos + Math.max(offset, 0), "jsx-text", text);
      }
    } else if (
      ts.isJsxExpression(node) &&
      node.parent &&
      (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))
    ) {
      // {"Bonjour"} as a child is JSX text in disguise.
      const text = literalText(node.expression);
      if (text !== undefined && needsTranslation(text)) report(node.getStart(sourceFile), "jsx-text", text.trim());
    } else if (ts.isJsxAttribute(node)) {
      const name = node.name.getText(sourceFile);
      if ((USER_FACING_ATTRIBUTES as readonly string[]).includes(name)) {
        const text = literalText(node.initializer);
        if (text !== undefined && needsTranslation(text)) report(node.getStart(sourceFile), "attribute", text, name);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** `.tsx` files under the given folders, tests excluded. */
export function listSourceFiles(root: string, folders: readonly string[] = ["app", "features", "shared"]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".tsx") && !entry.name.endsWith(".test.tsx")) files.push(path);
    }
  };
  for (const folder of folders) {
    const dir = join(root, folder);
    if (existsSync(dir)) walk(dir);
  }
  return files.sort();
}

// ---------------------------------------------------------------------------------------------
// Report

export interface CheckResult {
  catalogueIssues: CatalogueIssue[];
  hardcoded: HardcodedText[];
}

export function runCheck(root: string): CheckResult {
  const { catalogues, issues } = loadCatalogues(join(root, "locales"));
  const hardcoded = listSourceFiles(root).flatMap((file) =>
    findHardcodedText(readFileSync(file, "utf8"), relative(root, file).split(sep).join("/")),
  );
  return { catalogueIssues: [...issues, ...checkCatalogues(catalogues)], hardcoded };
}

export function formatReport(result: CheckResult): string {
  const lines: string[] = [];
  if (result.catalogueIssues.length > 0) {
    lines.push(`Translation catalogues: ${result.catalogueIssues.length} problem(s)`);
    for (const issue of result.catalogueIssues) {
      const where = `locales/${issue.locale}/${issue.namespace}.json${issue.key ? ` ${issue.key}` : ""}`;
      lines.push(`  ${where}: ${issue.message}`);
    }
  }
  if (result.hardcoded.length > 0) {
    if (lines.length > 0) lines.push("");
    lines.push(`Text that bypasses i18n: ${result.hardcoded.length} place(s)`);
    for (const hit of result.hardcoded) {
      const what = hit.kind === "attribute" ? `${hit.attribute}="${hit.text}"` : JSON.stringify(hit.text);
      lines.push(`  ${hit.file}:${hit.line}:${hit.column} ${what}`);
    }
    lines.push("", "Use t() from react-i18next, or put `// i18n-ignore` on the line before.");
  }
  return lines.length === 0 ? "i18n check passed." : lines.join("\n");
}

/** Checks the repository, or the folder given as the first argument. */
function main() {
  const root = process.argv[2] ?? join(fileURLToPath(new URL(".", import.meta.url)), "..");
  const result = runCheck(root);
  const failed = result.catalogueIssues.length > 0 || result.hardcoded.length > 0;
  (failed ? console.error : console.log)(formatReport(result));
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
