import vm from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { LOCALES } from "../constants.ts";
import { pageBundleAsset, pageBundleTag } from "./page-bundle.server.ts";
import { PAGE_BUNDLE_GLOBAL, pageBundleScript, readPageBundle } from "./page-bundle.ts";
import { NAMESPACES, resources } from "./resources.ts";

/** Runs an inline script the way the browser does, in a fresh global scope standing for `window`. */
function runInPage(script: string): object {
  const window = {};
  vm.runInNewContext(script, { window });
  return window;
}

describe("the page's language in the browser", () => {
  afterEach(() => {
    delete (globalThis as Record<string, unknown>)[PAGE_BUNDLE_GLOBAL];
  });

  it("writes one language's catalogues as a script file the browser reads back", () => {
    const paths = new Set<string>();
    for (const locale of LOCALES) {
      const asset = pageBundleAsset(locale);
      // Named by its content: a changed catalogue gets a new name, so a year of caching is safe.
      expect(asset.path).toMatch(new RegExp(`^/assets/i18n-${locale}-[\\w-]{10}\\.js$`));
      expect(pageBundleTag(locale).toString()).toBe(`<script src="${asset.path}"></script>`);
      paths.add(asset.path);
      const script = asset.body.toString("utf8");
      expect(script.startsWith(`window.${PAGE_BUNDLE_GLOBAL}={`)).toBe(true);
      const bundle = readPageBundle(runInPage(script));
      expect(bundle.locale).toBe(locale);
      expect(Object.keys(bundle.resources)).toEqual(NAMESPACES);
      expect(bundle.resources).toEqual(JSON.parse(JSON.stringify(resources[locale])));
    }
    expect(paths.size).toBe(LOCALES.length);
  });

  it("cannot end the script or open a comment, whatever the messages say", () => {
    const text = '</script><script>alert(1)</script> <!-- \u2028\u2029 "quotes" \\ é';
    const script = pageBundleScript({ locale: "fr", resources: { common: { text } } });
    expect(script).not.toMatch(/<|\u2028|\u2029/);
    expect(readPageBundle(runInPage(script)).resources).toEqual({ common: { text } });
  });

  it("says so when the page has no translations", () => {
    expect(() => readPageBundle({})).toThrow(/No translations in this page/);
  });

  it("gives the browser build resources.ts's exports, with the page's language only", async () => {
    (globalThis as Record<string, unknown>)[PAGE_BUNDLE_GLOBAL] = { locale: "en", resources: resources.en };
    const client = await import("./resources.client.ts");
    expect(Object.keys(client.resources)).toEqual(["en"]);
    expect(client.resources.en).toEqual(resources.en);
    expect(client.NAMESPACES).toEqual(NAMESPACES);
  });
});
