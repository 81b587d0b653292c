import { describe, expect, it } from "vitest";
import { changesPublicPages } from "./app.server.ts";

const request = (method: string, url: string, params: Record<string, unknown> = {}) => ({
  method,
  params,
  routeOptions: { url },
});

describe("changesPublicPages: which successful requests clear the page cache", () => {
  it("keeps the cache for a track uploaded for a course not saved yet (id 0), clears it for one on a course", () => {
    expect(changesPublicPages(request("POST", "/api/upload/track/:id", { id: 0 }))).toBe(false);
    expect(changesPublicPages(request("POST", "/api/upload/track/:id", { id: 42 }))).toBe(true);
  });

  it("keeps it for reads and sign-ins, clears it for other writes", () => {
    expect(changesPublicPages(request("GET", "/api/track/:id"))).toBe(false);
    expect(changesPublicPages(request("POST", "/api/login"))).toBe(false);
    expect(changesPublicPages(request("POST", "/api/set-track/:type", { type: "course" }))).toBe(true);
    expect(changesPublicPages(request("DELETE", "/api/track/:id", { id: 3 }))).toBe(true);
  });
});
