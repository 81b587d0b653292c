import { describe, expect, it } from "vitest";
import { LOCALES, type Locale } from "../constants.ts";
import { createInstance } from "./i18next-lite.ts";
import { createI18n, i18nOptions } from "./index.ts";
import { NAMESPACES, resources } from "./resources.ts";

/**
 * The server renders with i18next, the browser hydrates with its stand-in: for every message of
 * every namespace of both languages, in every form the pages call it, both must give the same.
 */
const PLURAL = /_(zero|one|two|few|many|other)$/;
const COUNTS = [0, 1, 2, 1.5, 21, 1000, 1_000_000];

type Node = { key: string; value: unknown };

/** Every node of a catalogue by dotted key: leaves, objects and arrays. */
function nodes(value: unknown, prefix = ""): Node[] {
  if (typeof value !== "object" || value === null) return [{ key: prefix, value }];
  const inner = Object.entries(value).flatMap(([k, v]) => nodes(v, prefix ? `${prefix}.${k}` : k));
  return prefix ? [{ key: prefix, value }, ...inner] : inner;
}

/** Each distinct `{{variable}}` of a message, with a recognisable value. */
function variables(messages: unknown[]): Record<string, string> {
  const names = messages.flatMap((m) => (typeof m === "string" ? [...m.matchAll(/\{\{-?(.+?)\}\}/g)] : []));
  return Object.fromEntries(names.map((match) => [match[1].trim(), `‹${match[1].trim()}›`]));
}

function browserI18n(locale: Locale) {
  return createInstance().init(i18nOptions(locale, { [locale]: resources[locale] }));
}

describe("the browser's i18next stand-in", () => {
  for (const locale of LOCALES) {
    it(`translates every message like i18next, in ${locale}`, () => {
      const server = createI18n(locale);
      const browser = browserI18n(locale);
      const differences: string[] = [];
      let calls = 0;
      const compare = (key: string, options?: Record<string, unknown>) => {
        calls++;
        const expected = server.t(key, options as never) as unknown;
        const actual = browser.t(key, options);
        if (JSON.stringify(actual) !== JSON.stringify(expected)) {
          differences.push(
            `${key} ${JSON.stringify(options)}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(expected)}`,
          );
        }
      };
      for (const ns of NAMESPACES) {
        // Keys of both languages: a key missing from one would show on the server in the fallback language.
        const all = LOCALES.flatMap((l) => nodes(resources[l][ns]));
        const keys = new Map<string, unknown[]>();
        for (const { key, value } of all)
          keys.set(key.replace(PLURAL, ""), [...(keys.get(key.replace(PLURAL, "")) ?? []), value]);
        for (const [key, values] of keys) {
          const full = `${ns}:${key}`;
          const vars = variables(values);
          compare(full);
          compare(full, vars);
          compare(full, { returnObjects: true, ...vars });
          for (const name of Object.keys(vars)) compare(full, { ...vars, [name]: undefined });
          for (const count of COUNTS) compare(full, { ...vars, count });
          if (ns === "common") compare(key, vars);
        }
      }
      compare("common:no.such.key");
      compare("no-such-namespace:title");
      compare("no.such.key", { defaultValue: "Default {{x}}", x: 3 });
      compare("landing:no.such.key", { count: 2, defaultValue: "Default" });
      compare("common:siteName", { ns: "landing" });
      compare("siteName", { ns: ["landing", "common"] });
      compare("A sentence: with a colon");
      expect(calls).toBeGreaterThan(1000);
      expect(differences).toEqual([]);
    });
  }

  it("gives the fixed t of a namespace, and the locale, like i18next", () => {
    for (const locale of LOCALES) {
      const server = createI18n(locale);
      const browser = browserI18n(locale);
      expect(browser.language).toBe(server.language);
      for (const ns of NAMESPACES) {
        const [first] = nodes(resources[locale][ns]).filter((n) => typeof n.value === "string");
        expect(browser.getFixedT(null, ns)(first.key)).toBe(server.getFixedT(null, ns)(first.key));
        expect(browser.getFixedT(null, ns)(`common:siteName`)).toBe(server.getFixedT(null, ns)("common:siteName"));
      }
      const { t } = browser; // called unbound, as app/meta.ts does
      expect(t("common:siteName")).toBe(server.t("common:siteName"));
    }
  });
});
