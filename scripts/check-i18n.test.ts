import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  checkCatalogues,
  findHardcodedText,
  flattenCatalogue,
  formatReport,
  interpolationVariables,
  listSourceFiles,
  needsTranslation,
  runCheck,
} from "./check-i18n.ts";

describe("catalogue check", () => {
  it("passes matching catalogues", () => {
    expect(
      checkCatalogues({
        fr: { common: { nav: { home: "Accueil" }, rights: "© {{year}} Dossard" } },
        en: { common: { nav: { home: "Home" }, rights: "© {{year}} Dossard" } },
      }),
    ).toEqual([]);
  });

  it("reports a key missing on either side", () => {
    const issues = checkCatalogues({
      fr: { common: { nav: { home: "Accueil", races: "Courses" } } },
      en: { common: { nav: { home: "Home" }, extra: "Only in English" } },
    });
    expect(issues).toEqual([
      expect.objectContaining({ kind: "missing-key", locale: "fr", namespace: "common", key: "extra" }),
      expect.objectContaining({ kind: "missing-key", locale: "en", namespace: "common", key: "nav.races" }),
    ]);
  });

  it("reports a missing namespace", () => {
    const issues = checkCatalogues({ fr: { common: {}, events: { a: "b" } }, en: { common: {} } });
    expect(issues).toEqual([expect.objectContaining({ kind: "missing-namespace", locale: "en", namespace: "events" })]);
  });

  it("reports mismatched interpolation variables", () => {
    const issues = checkCatalogues({
      fr: { events: { card: { more: "+{{count}} autres" } } },
      en: { events: { card: { more: "+{{total}} more" } } },
    });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ kind: "variables", locale: "en", key: "card.more" });
    expect(issues[0].message).toContain("count");
    expect(issues[0].message).toContain("total");
  });

  it("reports empty and non-text messages", () => {
    const issues = checkCatalogues({ fr: { ui: { a: " ", b: 3 } }, en: { ui: { a: "A", b: "B" } } });
    expect(issues.map((i) => [i.kind, i.locale, i.key])).toEqual([
      ["empty", "fr", "a"],
      ["invalid", "fr", "b"],
    ]);
  });

  it("groups plural forms so each language keeps its own", () => {
    expect(
      checkCatalogues({
        fr: {
          events: {
            count_one: "{{count}} course",
            count_many: "{{count}} de courses",
            count_other: "{{count}} courses",
          },
        },
        en: { events: { count_one: "One race", count_other: "{{count}} races" } },
      }),
    ).toEqual([]);
  });

  it("reads keys and variables", () => {
    expect([...flattenCatalogue({ a: { b: "x", c: ["y", "z"] } }).keys()]).toEqual(["a.b", "a.c.0", "a.c.1"]);
    expect([...interpolationVariables("{{count}} km le {{ date, short }} {{- html}}")]).toEqual([
      "count",
      "date",
      "html",
    ]);
  });
});

describe("hard-coded text in JSX", () => {
  it("finds JSX text with letters", () => {
    const hits = findHardcodedText(`export const A = () => (\n  <p>\n    Inscriptions ouvertes\n  </p>\n);`, "a.tsx");
    expect(hits).toEqual([{ file: "a.tsx", line: 3, column: 5, kind: "jsx-text", text: "Inscriptions ouvertes" }]);
  });

  it("finds literals in user-facing attributes, quoted or in braces", () => {
    const hits = findHardcodedText(
      `const B = () => <form><input placeholder="Rechercher" /><img alt={"Affiche"} src="x.png" /><button aria-label='Fermer' title={t("x")} /><Select label={\`Sport\`} name="sport" /></form>;`,
    );
    expect(hits.map((h) => [h.attribute, h.text])).toEqual([
      ["placeholder", "Rechercher"],
      ["alt", "Affiche"],
      ["aria-label", "Fermer"],
      ["label", "Sport"],
    ]);
  });

  it("allows symbols, numbers, units and expressions", () => {
    const source = `const C = ({ n, t }) => (
      <p title={t("x")} alt="">
        {n} · — × 42 % D+ km (km) 1 200 m {t("key")} {" "} / {\`\${n} \`}
        <img alt="" placeholder={t("search")} />
      </p>
    );`;
    expect(findHardcodedText(source)).toEqual([]);
    expect(needsTranslation("12 km · D+ 800 m")).toBe(false);
    expect(needsTranslation("Départ")).toBe(true);
  });

  it("finds a string literal child in braces", () => {
    expect(findHardcodedText(`const D = () => <span>{"Bonjour"}</span>;`)).toMatchObject([{ text: "Bonjour" }]);
  });

  it("honours an i18n-ignore comment on the line before", () => {
    const source = `const E = () => (
      <div>
        {/* i18n-ignore */}
        Dossard
        <input
          // i18n-ignore
          placeholder="jean@exemple.fr"
        />
        <input placeholder="Nom" />
      </div>
    );`;
    expect(findHardcodedText(source).map((h) => h.text)).toEqual(["Nom"]);
  });
});

describe("on files", () => {
  const root = mkdtempSync(join(tmpdir(), "check-i18n-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("scans app and features .tsx files, skipping tests, and reports both kinds of problems", () => {
    mkdirSync(join(root, "locales/fr"), { recursive: true });
    mkdirSync(join(root, "locales/en"), { recursive: true });
    mkdirSync(join(root, "app/routes"), { recursive: true });
    mkdirSync(join(root, "features/events/components"), { recursive: true });
    writeFileSync(join(root, "locales/fr/common.json"), JSON.stringify({ a: "A", b: "{{x}}" }));
    writeFileSync(join(root, "locales/en/common.json"), JSON.stringify({ a: "A" }));
    writeFileSync(join(root, "app/routes/home.tsx"), `export default () => <h1>Bienvenue</h1>;`);
    writeFileSync(join(root, "app/routes/home.test.tsx"), `export default () => <h1>Test</h1>;`);
    writeFileSync(join(root, "features/events/components/Card.tsx"), `export const C = () => <b>·</b>;`);
    writeFileSync(join(root, "features/events/helper.ts"), `export const x = "Texte";`);

    expect(listSourceFiles(root).map((f) => f.slice(root.length + 1))).toEqual([
      "app/routes/home.tsx",
      "features/events/components/Card.tsx",
    ]);
    const result = runCheck(root);
    expect(result.catalogueIssues).toMatchObject([{ kind: "missing-key", locale: "en", key: "b" }]);
    expect(result.hardcoded).toMatchObject([{ file: "app/routes/home.tsx", line: 1, text: "Bienvenue" }]);
    const report = formatReport(result);
    expect(report).toContain("locales/en/common.json b: missing (present in fr)");
    expect(report).toContain('app/routes/home.tsx:1:26 "Bienvenue"');
  });

  it("exits with code 1 and prints the report from the command line", () => {
    const script = join(import.meta.dirname, "check-i18n.ts");
    const run = spawnSync(process.execPath, ["--import", "tsx", script, root], { encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("Text that bypasses i18n: 1 place(s)");
    writeFileSync(join(root, "locales/en/common.json"), JSON.stringify({ a: "A", b: "{{x}}" }));
    writeFileSync(join(root, "app/routes/home.tsx"), `export default ({ t }) => <h1>{t("a")}</h1>;`);
    const fixed = spawnSync(process.execPath, ["--import", "tsx", script, root], { encoding: "utf8" });
    expect(fixed.stdout).toContain("i18n check passed.");
    expect(fixed.status).toBe(0);
  });

  it("says when all is well", () => {
    expect(formatReport({ catalogueIssues: [], hardcoded: [] })).toBe("i18n check passed.");
  });
});
