import { describe, expect, it } from "vitest";
import { sharedPageMatcher } from "./react-router.server.ts";

// The route manifest shape React Router's server build carries (parentId, path, index, module).
const route = (id: string, parentId: string | undefined, path: string | undefined, shared: boolean, index = false) => ({
  id,
  parentId,
  path,
  index,
  caseSensitive: undefined,
  module: shared ? { handle: { shared: true } } : {},
});

const build = {
  routes: {
    root: route("root", undefined, "", false),
    "fr.home": route("fr.home", "root", undefined, true, true),
    "en.home": route("en.home", "root", "en", true),
    "fr.event": route("fr.event", "root", "course/:slug", true),
    "fr.account": route("fr.account", "root", "user/profil", false),
    "not-found": route("not-found", "root", "*", false),
  },
} as unknown as Parameters<typeof sharedPageMatcher>[0];

describe("pages shared by every member", () => {
  const isShared = sharedPageMatcher(build);

  it("are the routes whose handle says so, with or without a query or the .data suffix", () => {
    expect(isShared("/")).toBe(true);
    expect(isShared("/?sport=trail&page=2")).toBe(true);
    expect(isShared("/en")).toBe(true);
    expect(isShared("/course/trail-des-aiguilles-2026")).toBe(true);
    expect(isShared("/course/trail-des-aiguilles-2026.data?_routes=fr.event")).toBe(true);
    expect(isShared("/_root.data")).toBe(true);
  });

  it("leave out the member's own pages, unknown addresses and malformed ones", () => {
    expect(isShared("/user/profil")).toBe(false);
    expect(isShared("/user/profil.data")).toBe(false);
    expect(isShared("/nowhere/at/all")).toBe(false);
    expect(isShared("/course/%E0%A4%A")).toBe(false);
  });
});

describe("event page views", () => {
  it("are told by the event page's address, in either language, document or data", async () => {
    const { eventSlugOf } = await import("./app.server.ts");
    expect(eventSlugOf("/course/trail-des-aiguilles-2026")).toBe("trail-des-aiguilles-2026");
    expect(eventSlugOf("/course/trail-des-aiguilles-2026?open=contact")).toBe("trail-des-aiguilles-2026");
    expect(eventSlugOf("/en/race/trail-des-aiguilles-2026.data?_routes=en.event")).toBe("trail-des-aiguilles-2026");
    expect(eventSlugOf("/course/x/y")).toBeNull();
    expect(eventSlugOf("/")).toBeNull();
    expect(eventSlugOf("/en/course/trail")).toBeNull();
  });
});
