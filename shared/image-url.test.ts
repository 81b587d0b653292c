import { describe, expect, it } from "vitest";
import { IMAGE_KINDS } from "./constants.ts";
import {
  DEFAULT_FALLBACK_IMAGE,
  eventImageUrl,
  fallbackImage,
  HEADER_FALLBACK_IMAGE,
  IMAGE_FOLDERS,
  imageUrl,
  MAP_FALLBACK_IMAGE,
  USER_FALLBACK_IMAGE,
  unixSeconds,
  withTimestamp,
} from "./image-url.ts";

describe("fallback images (spec section 3)", () => {
  it("exports the placeholder paths", () => {
    expect(USER_FALLBACK_IMAGE).toBe("/images/fallback/user.svg");
    expect(MAP_FALLBACK_IMAGE).toBe("/images/fallback/map.svg");
    expect(HEADER_FALLBACK_IMAGE).toBe("/images/fallback/header.svg");
    expect(DEFAULT_FALLBACK_IMAGE).toBe("/images/fallback/default.svg");
  });

  it("maps each kind to its placeholder", () => {
    expect(fallbackImage("user")).toBe("/images/fallback/user.svg");
    expect(fallbackImage("maps")).toBe("/images/fallback/map.svg");
    expect(fallbackImage("location")).toBe("/images/fallback/map.svg");
    expect(fallbackImage("article")).toBe("/images/fallback/header.svg");
    expect(fallbackImage("header")).toBe("/images/fallback/header.svg");
    expect(fallbackImage("track")).toBe("/images/fallback/header.svg");
    for (const kind of ["event", "challenge", "poster", "card", "custom", "video"]) {
      expect(fallbackImage(kind)).toBe("/images/fallback/default.svg");
    }
  });
});

describe("imageUrl", () => {
  it("stores every kind in its own folder", () => {
    for (const kind of IMAGE_KINDS) {
      expect(imageUrl({ kind, file: "a.jpg" })).toBe(`/media/${kind}/a.jpg`);
      expect(IMAGE_FOLDERS[kind]).toBe(kind);
    }
  });

  it("adds the directory segment of event images", () => {
    expect(imageUrl({ kind: "event", file: "flyer.webp", dir: 1234 })).toBe("/media/event/1234/flyer.webp");
    expect(eventImageUrl("flyer.webp", { dir: "2026/06" })).toBe("/media/event/2026/06/flyer.webp");
    expect(eventImageUrl("flyer.webp")).toBe("/media/event/flyer.webp");
    expect(imageUrl({ kind: "user", file: "me.jpg", dir: 5 })).toBe("/media/user/me.jpg");
  });

  it("adds the optional cache bucket of custom images", () => {
    expect(imageUrl({ kind: "custom", file: "banner.png", bucket: "home" })).toBe("/media/custom/home/banner.png");
    expect(imageUrl({ kind: "custom", file: "banner.png" })).toBe("/media/custom/banner.png");
  });

  it("appends the timestamp as ?t=<unix seconds>", () => {
    const at = new Date("2026-06-14T08:00:00Z");
    expect(imageUrl({ kind: "poster", file: "p.png", timestamp: at })).toBe("/media/poster/p.png?t=1781424000");
    expect(imageUrl({ kind: "poster", file: "p.png", timestamp: 1781424000 })).toBe("/media/poster/p.png?t=1781424000");
    expect(imageUrl({ kind: "poster", file: "p.png", timestamp: "2026-06-14T08:00:00.999Z" })).toBe(
      "/media/poster/p.png?t=1781424000",
    );
    expect(withTimestamp("/x.png?w=200#top", 10)).toBe("/x.png?w=200&t=10#top");
    expect(withTimestamp("/x.png", "not a date")).toBe("/x.png");
    expect(unixSeconds(1.9)).toBe(1);
  });

  it("falls back when there is no file", () => {
    expect(imageUrl({ kind: "user", file: null })).toBe("/images/fallback/user.svg");
    expect(imageUrl({ kind: "maps", file: "" })).toBe("/images/fallback/map.svg");
    expect(imageUrl({ kind: "header", file: undefined })).toBe("/images/fallback/header.svg");
    expect(imageUrl({ kind: "event", file: "  " })).toBe("/images/fallback/default.svg");
    expect(imageUrl({ kind: "header", file: null, fallback: "location" })).toBe("/images/fallback/map.svg");
    expect(imageUrl({ kind: "user", file: null, timestamp: 5 })).toBe("/images/fallback/user.svg");
  });

  it("keeps addresses that are already URLs or site paths", () => {
    expect(imageUrl({ kind: "user", file: "https://lh3.googleusercontent.com/a/x" })).toBe(
      "https://lh3.googleusercontent.com/a/x",
    );
    expect(imageUrl({ kind: "event", file: "/images/demo/1.jpg", timestamp: 10 })).toBe("/images/demo/1.jpg?t=10");
  });

  it("encodes names and keeps them inside their folder", () => {
    expect(imageUrl({ kind: "article", file: "photo été.jpg" })).toBe("/media/article/photo%20%C3%A9t%C3%A9.jpg");
    expect(imageUrl({ kind: "article", file: "../../etc/passwd" })).toBe("/media/article/etc/passwd");
  });

  it("makes addresses absolute on request", () => {
    expect(imageUrl({ kind: "card", file: "c.png", absolute: "https://dossard.fr" })).toBe(
      "https://dossard.fr/media/card/c.png",
    );
    expect(imageUrl({ kind: "user", file: null, absolute: true })).toBe(
      "http://localhost:3000/images/fallback/user.svg",
    );
    expect(imageUrl({ kind: "user", file: "http://cdn.example.com/u.png", absolute: true })).toBe(
      "https://cdn.example.com/u.png",
    );
  });
});
