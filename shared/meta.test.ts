import type { MetaDescriptor } from "react-router";
import { describe, expect, it } from "vitest";
import {
  buildMeta,
  DEFAULT_SHARE_IMAGE,
  plainText,
  resolveDescription,
  resolveImage,
  resolveTitle,
  truncateDescription,
} from "./meta.ts";

const origin = "https://dossard.fr";
const LONG =
  "Le marathon de Paris traverse les plus beaux quartiers de la capitale, des Champs-Élysées au bois de Vincennes, " +
  "avant de revenir par les quais de Seine jusqu'à l'avenue Foch.";

function content(meta: MetaDescriptor[], key: "name" | "property", value: string): unknown {
  const found = meta.find((m) => (m as Record<string, unknown>)[key] === value) as { content?: unknown } | undefined;
  return found?.content;
}
function links(meta: MetaDescriptor[], rel: string) {
  return meta.filter((m) => (m as Record<string, unknown>).tagName === "link" && (m as { rel?: string }).rel === rel);
}

describe("fallbacks (spec section 2)", () => {
  it("title: title, else pageTitle, else headerTitle, else the site name", () => {
    expect(resolveTitle({ title: "A", pageTitle: "B", headerTitle: "C" })).toBe("A");
    expect(resolveTitle({ title: "", pageTitle: "B", headerTitle: "C" })).toBe("B");
    expect(resolveTitle({ title: null, pageTitle: "  ", headerTitle: "C" })).toBe("C");
    expect(resolveTitle({})).toBe("Dossard");
  });

  it("description: description, else pageDesc, else headerText, else headerTitle", () => {
    expect(resolveDescription({ description: "D", pageDesc: "P", headerText: "H", headerTitle: "T" })).toBe("D");
    expect(resolveDescription({ pageDesc: "P", headerText: "H", headerTitle: "T" })).toBe("P");
    expect(resolveDescription({ headerText: "<p>H &amp; co</p>", headerTitle: "T" })).toBe("H & co");
    expect(resolveDescription({ headerTitle: "T" })).toBe("T");
    expect(resolveDescription({})).toBeUndefined();
  });

  it("image: image, else pageImage, else headerImage, else the default share image", () => {
    expect(resolveImage({ image: "/a.jpg", pageImage: "/b.jpg", headerImage: "/c.jpg" })).toBe("/a.jpg");
    expect(resolveImage({ pageImage: "/b.jpg", headerImage: "/c.jpg" })).toBe("/b.jpg");
    expect(resolveImage({ headerImage: "/c.jpg" })).toBe("/c.jpg");
    expect(resolveImage({})).toBe("/images/share-default.png");
    expect(DEFAULT_SHARE_IMAGE).toBe("/images/share-default.png");
  });
});

describe("truncateDescription (140 characters in head tags)", () => {
  it("keeps short text as is", () => {
    expect(truncateDescription("Trail des Cimes, 42 km.")).toBe("Trail des Cimes, 42 km.");
    expect(truncateDescription("x".repeat(140))).toBe("x".repeat(140));
  });

  it("cuts at a word boundary with an ellipsis, never over 140 characters", () => {
    const cut = truncateDescription(LONG);
    expect(LONG.length).toBeGreaterThan(140);
    expect(cut).toBe(
      "Le marathon de Paris traverse les plus beaux quartiers de la capitale, des Champs-Élysées au bois de Vincennes, avant de revenir par les…",
    );
    expect(Array.from(cut).length).toBeLessThanOrEqual(140);
    expect(LONG.startsWith(cut.slice(0, -1))).toBe(true);
  });

  it("never ends on punctuation before the ellipsis", () => {
    const text = `${"mot ".repeat(33)}fin, suite et encore`; // the cut lands just after "fin,"
    const cut = truncateDescription(text);
    expect(cut.endsWith("fin…")).toBe(true);
  });

  it("hard-cuts a single over-long word and counts code points", () => {
    expect(truncateDescription("a".repeat(200))).toBe(`${"a".repeat(139)}…`);
    const emoji = `${"🏃".repeat(150)}`;
    expect(Array.from(truncateDescription(emoji))).toHaveLength(140);
  });

  it("strips HTML and collapses whitespace", () => {
    expect(plainText("<p>Départ&nbsp;à 9 h</p>\n<p>Arrivée</p>")).toBe("Départ à 9 h Arrivée");
  });
});

describe("buildMeta", () => {
  it("builds the title, description, canonical, Open Graph and Twitter tags", () => {
    const meta = buildMeta({
      locale: "fr",
      path: "/courses/marathon-de-paris?tab=results",
      pageTitle: "Marathon de Paris",
      description: LONG,
      headerImage: "/media/event/12/paris.webp",
      type: "article",
      origin,
    });
    const cut = truncateDescription(LONG);
    expect(meta[0]).toEqual({ title: "Marathon de Paris | Dossard" });
    expect(content(meta, "name", "description")).toBe(cut);
    expect(links(meta, "canonical")).toEqual([
      { tagName: "link", rel: "canonical", href: "https://dossard.fr/courses/marathon-de-paris" },
    ]);
    expect(content(meta, "property", "og:title")).toBe("Marathon de Paris");
    expect(content(meta, "property", "og:description")).toBe(cut);
    // The share version of the picture: a JPEG whose type and size the tags say.
    expect(content(meta, "property", "og:image")).toBe("https://dossard.fr/media/share/event/12/paris.webp.jpg");
    expect(content(meta, "property", "og:image:type")).toBe("image/jpeg");
    expect(content(meta, "property", "og:image:width")).toBe("1200");
    expect(content(meta, "property", "og:image:height")).toBe("630");
    expect(content(meta, "property", "og:url")).toBe("https://dossard.fr/courses/marathon-de-paris");
    expect(content(meta, "property", "og:type")).toBe("article");
    expect(content(meta, "property", "og:site_name")).toBe("Dossard");
    expect(content(meta, "property", "og:locale")).toBe("fr_FR");
    expect(content(meta, "property", "og:locale:alternate")).toBe("en_GB");
    expect(content(meta, "name", "twitter:card")).toBe("summary_large_image");
    expect(content(meta, "name", "twitter:description")).toBe(cut);
    expect(content(meta, "name", "twitter:image")).toBe("https://dossard.fr/media/share/event/12/paris.webp.jpg");
  });

  it("adds hreflang alternates fr, en and x-default", () => {
    const meta = buildMeta({ locale: "en", path: "/en/page/contact", title: "Contact", origin });
    expect(links(meta, "alternate")).toEqual([
      { tagName: "link", rel: "alternate", hrefLang: "fr", href: "https://dossard.fr/page/contact" },
      { tagName: "link", rel: "alternate", hrefLang: "en", href: "https://dossard.fr/en/page/contact" },
      { tagName: "link", rel: "alternate", hrefLang: "x-default", href: "https://dossard.fr/page/contact" },
    ]);
    expect(content(meta, "property", "og:locale")).toBe("en_GB");
  });

  it("takes localized alternates, or none", () => {
    const meta = buildMeta({ locale: "fr", path: "/courses", alternates: { en: "/en/races" }, origin });
    expect(links(meta, "alternate").map((l) => (l as { href: string }).href)).toEqual([
      "https://dossard.fr/courses",
      "https://dossard.fr/en/races",
      "https://dossard.fr/courses",
    ]);
    expect(links(buildMeta({ locale: "fr", path: "/x", alternates: false, origin }), "alternate")).toEqual([]);
  });

  it("falls back to the site name and the default share image, omitting an absent description", () => {
    const meta = buildMeta({ locale: "fr", path: "/", origin, noIndex: true });
    expect(meta[0]).toEqual({ title: "Dossard" });
    expect(content(meta, "name", "description")).toBeUndefined();
    expect(content(meta, "property", "og:description")).toBeUndefined();
    expect(content(meta, "name", "robots")).toBe("noindex");
    expect(content(meta, "property", "og:image")).toBe("https://dossard.fr/images/share-default.png");
    expect(content(meta, "property", "og:image:type")).toBe("image/png");
    expect([content(meta, "property", "og:image:width"), content(meta, "property", "og:image:height")]).toEqual([
      "1200",
      "630",
    ]);
  });

  it("shares members' photos and drawn landscapes as JPEGs, keeping the photo's timestamp", () => {
    const image = (input: Partial<Parameters<typeof buildMeta>[0]>) =>
      content(buildMeta({ locale: "fr", path: "/x", origin, ...input }), "property", "og:image");
    expect(image({ image: "/media/user/12-ab3f.webp?t=1700000000" })).toBe(
      "https://dossard.fr/media/share/user/12-ab3f.webp.jpg?t=1700000000",
    );
    expect(image({ headerImage: "/media/art/alps-3-sunrise.webp" })).toBe(
      "https://dossard.fr/media/share/art/alps-3-sunrise.webp.jpg",
    );
    expect(image({ image: "https://dossard.fr/media/event/4/a.webp" })).toBe(
      "https://dossard.fr/media/share/event/4/a.webp.jpg",
    );
    // A drawn fallback (SVG), or a folder without share versions: the default image.
    expect(image({ image: "/images/fallback/user.svg" })).toBe("https://dossard.fr/images/share-default.png");
    expect(image({ image: "/media/event/4/thumbs/a-event.webp" })).toBe("https://dossard.fr/images/share-default.png");
  });

  it("uses an explicit canonical and upgrades http addresses", () => {
    const meta = buildMeta({
      locale: "fr",
      path: "/old-slug",
      canonical: "/new-slug",
      image: "http://cdn.example.com/i.jpg",
      origin: "http://dossard.fr",
    });
    expect(links(meta, "canonical")[0]).toMatchObject({ href: "https://dossard.fr/new-slug" });
    expect(content(meta, "property", "og:url")).toBe("https://dossard.fr/new-slug");
    // Another site's picture: its type and size cannot be vouched for; the default image instead.
    expect(content(meta, "property", "og:image")).toBe("https://dossard.fr/images/share-default.png");
  });
});
