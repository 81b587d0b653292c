import { afterEach, describe, expect, it } from "vitest";
import {
  configurePublicOrigin,
  DEFAULT_PUBLIC_ORIGIN,
  getPublicOrigin,
  normalizeOrigin,
  publicUrl,
} from "./public-url.ts";

afterEach(() => configurePublicOrigin(DEFAULT_PUBLIC_ORIGIN));

describe("publicUrl", () => {
  const origin = "https://dossard.fr";

  it("prefixes relative paths with the public origin", () => {
    expect(publicUrl("/courses/trail", origin)).toBe("https://dossard.fr/courses/trail");
    expect(publicUrl("images/share-default.png", origin)).toBe("https://dossard.fr/images/share-default.png");
    expect(publicUrl("/", "https://dossard.fr/")).toBe("https://dossard.fr/");
  });

  it("converts http addresses to https", () => {
    expect(publicUrl("http://example.com/a?b=1", origin)).toBe("https://example.com/a?b=1");
    expect(publicUrl("/x", "http://dossard.fr")).toBe("https://dossard.fr/x");
    expect(publicUrl("HTTP://Example.com/a", origin)).toBe("https://example.com/a");
  });

  it("converts protocol-relative addresses to https", () => {
    expect(publicUrl("//cdn.dossard.fr/img.jpg", origin)).toBe("https://cdn.dossard.fr/img.jpg");
  });

  it("keeps https and other schemes unchanged", () => {
    expect(publicUrl("https://example.com/a", origin)).toBe("https://example.com/a");
    expect(publicUrl("mailto:contact@dossard.fr", origin)).toBe("mailto:contact@dossard.fr");
  });

  it("keeps http for local hosts, which serve no TLS in development", () => {
    expect(publicUrl("http://localhost:3000/x", origin)).toBe("http://localhost:3000/x");
    expect(publicUrl("http://127.0.0.1:3000/x", origin)).toBe("http://127.0.0.1:3000/x");
    expect(publicUrl("/x", "http://localhost:3000")).toBe("http://localhost:3000/x");
  });

  it("uses a configurable default origin", () => {
    expect(getPublicOrigin()).toBe("http://localhost:3000");
    expect(publicUrl("/x")).toBe("http://localhost:3000/x");
    configurePublicOrigin("http://www.dossard.fr/some/path");
    expect(getPublicOrigin()).toBe("https://www.dossard.fr");
    expect(publicUrl("/x")).toBe("https://www.dossard.fr/x");
  });

  it("rejects an origin that is not a URL", () => {
    expect(() => normalizeOrigin("not a url")).toThrow();
  });
});
