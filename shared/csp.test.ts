import { describe, expect, it } from "vitest";
import { CSP_DIRECTIVES, contentSecurityPolicy, inlineScripts } from "./csp.ts";

describe("content security policy", () => {
  it("allows scripts from the site only, plus the hashes given", () => {
    const header = contentSecurityPolicy(["'sha256-abc='"]);
    expect(header).toContain("default-src 'self'");
    expect(header).toContain("script-src 'self' 'sha256-abc='");
    expect(header).toContain("script-src-attr 'none'");
    expect(header).toContain("object-src 'none'");
    // Styles keep 'unsafe-inline' (style="…" attributes); no hash or nonce there.
    expect(header).toMatch(/style-src 'self' 'unsafe-inline'(;|$)/);
    expect(header).not.toContain("unsafe-eval");
    expect(contentSecurityPolicy()).toContain("script-src 'self';");
    expect(header.split(";")).toHaveLength(Object.keys(CSP_DIRECTIVES).length);
  });

  it("finds the text of inline scripts, not of scripts loaded from a file", () => {
    const html = [
      '<script type="module" src="/assets/entry.js"></script>',
      "<script>window.__a = 1;</script>",
      '<script type="module">import "/assets/x.js";\nrun();</script>',
      '<script type="application/ld+json">{"@type":"Event"}</script>',
      '<SCRIPT nonce="x">b()</SCRIPT>',
      "<script></script>",
    ].join("\n");
    expect(inlineScripts(html)).toEqual([
      "window.__a = 1;",
      'import "/assets/x.js";\nrun();',
      '{"@type":"Event"}',
      "b()",
    ]);
  });
});
