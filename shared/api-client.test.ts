import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiFetch, loginPathFor } from "./api-client.ts";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "./constants.ts";

let server: http.Server;
let base: string;
const seen: http.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.headers);
    res.statusCode = req.url === "/api/forbidden" ? 403 : 200;
    res.end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("apiFetch", () => {
  it("sends the fixed access header and JSON content type on every request", async () => {
    const replaced: string[] = [];
    const apiFetch = createApiFetch({ fetch, pathname: () => "/", replace: (p) => replaced.push(p) });
    const res = await apiFetch(`${base}/api/ok`, { method: "POST", body: JSON.stringify({ a: 1 }) });
    expect(res.status).toBe(200);
    const headers = seen.at(-1)!;
    expect(headers[ACCESS_HEADER]).toBe(ACCESS_HEADER_VALUE);
    expect(headers["content-type"]).toBe("application/json");
    expect(replaced).toEqual([]);
  });

  it("replaces the location with the login page of the current language on a 403", async () => {
    const replaced: string[] = [];
    let path = "/course/x";
    const apiFetch = createApiFetch({ fetch, pathname: () => path, replace: (p) => replaced.push(p) });
    expect((await apiFetch(`${base}/api/forbidden`)).status).toBe(403);
    path = "/en/race/x";
    await apiFetch(`${base}/api/forbidden`);
    expect(replaced).toEqual(["/login", "/en/login"]);
  });

  it("maps paths to the login page of their language", () => {
    expect(loginPathFor("/")).toBe("/login");
    expect(loginPathFor("/en")).toBe("/en/login");
    expect(loginPathFor("/enduro")).toBe("/login");
  });
});
