import type { FastifyInstance } from "fastify";
import { accessHeaders } from "./harness.ts";

/** A browser as the API sees it: one address (the socket's) and a cookie jar. */
export type TestBrowser = { ip: string; cookies: Map<string, string> };

let browsers = 0;
/** A new browser at an address of the documentation range 198.18.0.0/15 (never routed). */
export function newBrowser(): TestBrowser {
  browsers++;
  return { ip: `198.18.${(browsers >> 8) & 255}.${browsers & 255}`, cookies: new Map() };
}

export function cookieHeader(browser: TestBrowser): string {
  return [...browser.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
}

/** A JSON API call with the access header, the browser's cookies kept as a browser keeps them. */
export async function browse(
  app: FastifyInstance,
  browser: TestBrowser,
  method: "GET" | "POST" | "DELETE",
  url: string,
  options: { payload?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await app.inject({
    method,
    url,
    remoteAddress: browser.ip,
    headers: {
      ...accessHeaders,
      ...(browser.cookies.size ? { cookie: cookieHeader(browser) } : {}),
      ...(options.payload !== undefined ? { "content-type": "application/json" } : {}),
      ...options.headers,
    },
    ...(options.payload !== undefined ? { payload: JSON.stringify(options.payload) } : {}),
  });
  for (const cookie of response.cookies) {
    if (cookie.value) browser.cookies.set(cookie.name, cookie.value);
    else browser.cookies.delete(cookie.name);
  }
  return response;
}
