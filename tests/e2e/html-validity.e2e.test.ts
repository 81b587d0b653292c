/**
 * The main pages' HTML, as the built server sends it, checked by html-validate (an HTML5 validator
 * nobody here wrote) with its `standard` rules, those of the HTML specification the W3C checker
 * applies (nesting, unique ids, labels that point at controls, attributes), and its `a11y` rules
 * (no aria-hidden on what can be focused, labelled controls…). No browser: the HTML the server
 * renders is what crawlers and the W3C checker read.
 */
import { HtmlValidate, type Message } from "html-validate";
import { describe, expect, inject, it } from "vitest";

const baseURL = inject("baseURL");

const validator = new HtmlValidate({
  extends: ["html-validate:standard", "html-validate:a11y"],
  rules: {
    // React writes boolean attributes as `attr=""`, which the specification allows.
    "attribute-boolean-style": "off",
    "attribute-empty-style": "off",
    // React Router's hydration data and the JSON-LD are inline scripts with their own CSP hashes.
    "no-inline-style": "off",
    // A recommendation of html-validate's, not a rule of HTML (the W3C checker has no such check).
    "no-implicit-button-type": "off",
    // aria-label where ARIA lets the element's role take a name (a list), as the W3C checker judges
    // it; never on an element without such a role (a div, a dl).
    "aria-label-misuse": ["error", { allowAnyNamable: true }],
    // `for` and aria-* references point at elements of the page.
    "no-missing-references": "error",
  },
});

async function html(path: string): Promise<string> {
  const res = await fetch(`${baseURL}${path}`, { headers: { accept: "text/html", "accept-language": "fr" } });
  expect(res.status, path).toBe(200);
  expect(res.headers.get("content-type"), path).toMatch(/^text\/html/);
  return res.text();
}

/** One line per problem: rule, message and the element's selector. */
async function problems(path: string): Promise<string[]> {
  const report = await validator.validateString(await html(path), path);
  return report.results.flatMap((r) =>
    r.messages.map((m: Message) => `${m.ruleId}: ${m.message} (${m.selector ?? `line ${m.line}`})`),
  );
}

async function anEventSlug(): Promise<string> {
  const res = await fetch(`${baseURL}/api/events?perPage=1`);
  const body = (await res.json()) as { items: { slug: string }[] };
  const slug = body.items[0]?.slug;
  expect(slug).toBeTruthy();
  return slug as string;
}

describe("HTML of the main pages (html-validate, standard and a11y rules)", () => {
  it.each([
    ["home", "/"],
    ["search", "/?sport=trail&region=auvergne-rhone-alpes"],
    ["landing", "/courses/trail"],
    ["login", "/login"],
    ["register", "/inscription"],
    ["legal notice", "/page/mentions-legales"],
    ["home in English", "/en"],
    ["community", "/communaute"],
    ["community activity in English", "/en/community/activity"],
    ["members directory", "/communaute/membres?q=camille"],
  ])("%s (%s) has no problem", async (_name, path) => {
    expect(await problems(path)).toEqual([]);
  });

  it("the legal notice names who runs the site and never a setting's name", async () => {
    // The journeys' server sets LEGAL_PUBLISHER and LEGAL_ADDRESS only (global-setup.ts).
    for (const [path, missing] of [
      ["/page/mentions-legales", "non communiqué"],
      ["/en/page/legal-notice", "not provided"],
    ]) {
      const text = await html(path);
      expect(text).toContain("Dossard SAS");
      expect(text).toContain(missing);
      expect(text).not.toMatch(/LEGAL_|réglage|setting /);
    }
  });

  it("the event page has no problem, in French and in English", async () => {
    const slug = await anEventSlug();
    expect(await problems(`/course/${slug}`)).toEqual([]);
    expect(await problems(`/en/race/${slug}`)).toEqual([]);
  });

  it("the checker finds what the W3C checker would (a page it must refuse)", async () => {
    const report = await validator.validateString(
      '<!doctype html><html lang="fr"><head><title>x</title></head><body>' +
        '<label for="nowhere">Nom</label><button aria-hidden="true">OK</button>' +
        '<p id="a"><div id="a"></div></p></body></html>',
    );
    const rules = new Set(report.results.flatMap((r) => r.messages.map((m) => m.ruleId)));
    expect(report.valid).toBe(false);
    expect([...rules]).toEqual(
      expect.arrayContaining(["no-dup-id", "hidden-focusable", "close-order", "no-missing-references"]),
    );
  });
});
