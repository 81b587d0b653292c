import { describe, expect, it } from "vitest";
import { isServerPath, matchRoute, ROUTES, type RouteName, routeUrl } from "./route-url.ts";

describe("route table", () => {
  it("holds every named server route of spec section 2", () => {
    const paths = Object.values(ROUTES).map((r) => r.path);
    for (const path of [
      "/user/activity/strava",
      "/user/activity/{id?}/{action?}",
      "/user/activities/{type?}",
      "/admin/activities",
      "/admin/challenge/create",
      "/admin/challenge/{id}",
      "/admin/challenge/delete/{id}",
      "/connect/google",
      "/connect/strava",
      "/connect/facebook",
      "/logout",
      "/login",
      "/ext/payment/price/{id}",
      "/ext/payment/retry/{uid}",
      "/ext/payment/check/{uid}",
      "/ext/user/poster/{id}/export/{format}",
      "/track/export/{id}/gpx",
      "/mailing/{token}",
      "/redirect/{type}/{id}/{slug?}",
      "/link/partner/{partner}/{id}/{slug}",
      "/link/mailing/{token}/{key?}",
    ]) {
      expect(paths).toContain(path);
    }
  });

  it("holds the API routes of spec section 7 with their methods", () => {
    const byPath = (path: string) => Object.values(ROUTES).filter((r) => r.path === path);
    expect(byPath("/api/thumbnail")[0].methods).toEqual(["POST"]);
    expect(byPath("/api/event/{type?}/{id}")[0].methods).toEqual(["GET"]);
    expect(byPath("/api/event/{id}/status/{type}")[0].methods).toEqual(["POST"]);
    expect(byPath("/api/results/{id}")[0].methods).toEqual(["POST", "DELETE"]);
    expect(byPath("/api/user/calendar/{id}")[0].methods).toEqual(["POST", "DELETE"]);
    expect(byPath("/api/video/{id}")[0].methods).toEqual(["GET", "POST", "DELETE"]);
    for (const path of [
      "/api/admin/users/{format?}",
      "/api/comments/{type}/{id?}",
      "/api/locale/{_locale}",
      "/api/events/{format}",
      "/api/events/around/{req}",
      "/api/events_group/{type}",
      "/api/rankings/{type}/{order}",
      "/api/user/{slug}/stats",
      "/api/shop/import/{save?}",
      "/api/upload/file",
      "/api/admin/user/{id}",
    ]) {
      expect(byPath(path)).toHaveLength(1);
    }
  });

  it("makes ids numeric by default and leaves slugs, tokens and uids free", () => {
    expect(ROUTES["track.export.gpx"].numeric).toEqual(["id"]);
    expect(ROUTES["api.rating.event"].numeric).toEqual(["event"]);
    expect(ROUTES["payment.retry"].numeric).toEqual([]);
    expect(ROUTES["api.event"].numeric).toEqual([]);
    expect(ROUTES.app.numeric).toEqual([]);
  });
});

describe("routeUrl", () => {
  it("fills path variables", () => {
    expect(routeUrl("track.export.gpx", { id: 42 })).toBe("/track/export/42/gpx");
    expect(routeUrl("poster.export", { id: 7, format: "pdf" })).toBe("/ext/user/poster/7/export/pdf");
    expect(routeUrl("link.partner", { partner: "decathlon", id: 3, slug: "chaussures-trail" })).toBe(
      "/link/partner/decathlon/3/chaussures-trail",
    );
    expect(routeUrl("mailing.view", { token: "abc" })).toBe("/mailing/abc");
    expect(routeUrl("api.event.status", { id: 5, type: "cancel" })).toBe("/api/event/5/status/cancel");
    expect(routeUrl("logout")).toBe("/logout");
  });

  it("URL-encodes path variables", () => {
    expect(routeUrl("mailing.view", { token: "a/b c?é" })).toBe("/mailing/a%2Fb%20c%3F%C3%A9");
    expect(routeUrl("api.page", { slug: "mentions légales" })).toBe("/api/page/mentions%20l%C3%A9gales");
  });

  it("drops unfilled optional trailing segments", () => {
    expect(routeUrl("redirect", { type: "event", id: 12 })).toBe("/redirect/event/12");
    expect(routeUrl("redirect", { type: "event", id: 12, slug: "marathon-de-paris" })).toBe(
      "/redirect/event/12/marathon-de-paris",
    );
    expect(routeUrl("redirect", { type: "event", id: 12, slug: null })).toBe("/redirect/event/12");
    expect(routeUrl("user.activity")).toBe("/user/activity");
    expect(routeUrl("user.activity", { id: 9 })).toBe("/user/activity/9");
    expect(routeUrl("api.events.format", { format: "map" })).toBe("/api/events/map");
    expect(routeUrl("app")).toBe("/");
    expect(routeUrl("app", { app: "courses", param1: "trail" })).toBe("/courses/trail");
  });

  it("leaves out an optional segment equal to its default (type defaults to activity)", () => {
    expect(routeUrl("user.activities")).toBe("/user/activities");
    expect(routeUrl("user.activities", { type: "activity" })).toBe("/user/activities");
    expect(routeUrl("user.activities", { type: "poster" })).toBe("/user/activities/poster");
  });

  it("leaves out an optional segment before a required one", () => {
    expect(routeUrl("api.event", { id: 5 })).toBe("/api/event/5");
    expect(routeUrl("api.event", { type: "slug", id: "marathon-de-paris" })).toBe("/api/event/slug/marathon-de-paris");
  });

  it("appends leftover parameters as a query string", () => {
    expect(routeUrl("api.events", { sport: "trail", page: 2 })).toBe("/api/events?sport=trail&page=2");
    expect(routeUrl("api.events", { sport: ["trail", "running"], region: null, dept: undefined })).toBe(
      "/api/events?sport=trail&sport=running",
    );
    expect(routeUrl("track.export.gpx", { id: 1, download: true })).toBe("/track/export/1/gpx?download=true");
    expect(routeUrl("api.events", { q: "saint-étienne & co" })).toBe("/api/events?q=saint-%C3%A9tienne+%26+co");
  });

  it('fails with "route does not exist" for an unknown name', () => {
    const untyped = routeUrl as (name: string, params?: object) => string;
    expect(() => untyped("nope")).toThrow(/route does not exist/);
    expect(() => untyped("toString")).toThrow(/route does not exist/);
  });

  it('fails with "requires the parameter" and its name when a required one is missing', () => {
    // @ts-expect-error the compiler also knows `id` is required
    expect(() => routeUrl("track.export.gpx", {})).toThrow('Route "track.export.gpx" requires the parameter "id"');
    expect(() => routeUrl("link.partner", { partner: "x", id: 1, slug: "" })).toThrow(
      'Route "link.partner" requires the parameter "slug"',
    );
  });

  it("refuses an optional gap that would shift a later value", () => {
    expect(() => routeUrl("user.activity", { action: "edit" })).toThrow(
      'Route "user.activity" requires the parameter "id"',
    );
    expect(() => routeUrl("app", { param2: "x" })).toThrow(/requires the parameter "app"/);
  });

  it("checks numeric ids", () => {
    expect(() => routeUrl("track.export.gpx", { id: "abc" })).toThrow(/requires the parameter "id" to be numeric/);
    expect(() => routeUrl("track.export.gpx", { id: -1 })).toThrow(/numeric/);
    expect(routeUrl("track.export.gpx", { id: "0042" })).toBe("/track/export/0042/gpx");
    expect(routeUrl("payment.check", { uid: "ord_9f3a" })).toBe("/ext/payment/check/ord_9f3a");
  });
});

describe("matchRoute", () => {
  it("reads decoded parameters back and applies defaults", () => {
    expect(matchRoute("redirect", "/redirect/event/12/mara%20thon")).toEqual({
      type: "event",
      id: "12",
      slug: "mara thon",
    });
    expect(matchRoute("redirect", "/redirect/event/12")).toEqual({ type: "event", id: "12" });
    expect(matchRoute("user.activities", "/user/activities")).toEqual({ type: "activity" });
    expect(matchRoute("app", "/")).toEqual({});
    expect(matchRoute("user.activity", "/user/activity/9/edit")).toEqual({ id: "9", action: "edit" });
  });

  it("uses numeric ids to tell literal pages from id pages", () => {
    expect(matchRoute("user.activity", "/user/activity/strava")).toBeNull();
    expect(matchRoute("user.activity.strava", "/user/activity/strava")).toEqual({});
    expect(matchRoute("admin.challenge.edit", "/admin/challenge/create")).toBeNull();
    expect(matchRoute("admin.challenge.edit", "/admin/challenge/3")).toEqual({ id: "3" });
  });

  it("round-trips every route built from sample values", () => {
    for (const name of Object.keys(ROUTES) as RouteName[]) {
      const params: Record<string, string> = {};
      for (const [, param] of ROUTES[name].path.matchAll(/\{([^}?]+)\??\}/g)) {
        params[param] = (ROUTES[name].numeric as readonly string[]).includes(param) ? "17" : `v-${param}`;
      }
      const url = routeUrl(name, params as never);
      expect(matchRoute(name, url), name).toEqual(params);
    }
  });
});

describe("isServerPath", () => {
  it("recognises the Fastify-served prefixes", () => {
    expect(isServerPath("/logout")).toBe(true);
    expect(isServerPath("/logout?next=/")).toBe(true);
    expect(isServerPath("/logout-page")).toBe(false);
    expect(isServerPath("/track/export/1/gpx")).toBe(true);
    expect(isServerPath("/connect/google")).toBe(true);
    expect(isServerPath("/user/activities")).toBe(false);
    expect(isServerPath("/")).toBe(false);
  });
});
