import { inject } from "vitest";

/**
 * The journeys share one server, which limits registrations, sign-ins and messages per client
 * address as it would in production. Each journey file therefore comes from its own address: the
 * shared server trusts the loopback proxy (TRUSTED_PROXIES=loopback, global-setup.ts) and every
 * request of the file — Node's fetch here, Chromium's through browser.ts — says
 * `X-Forwarded-For: <this file's address>`, as a reverse proxy in front would.
 *
 * Loaded as a setup file of the e2e project (vitest.config.ts): one address per file.
 */
const byte = () => 1 + Math.floor(Math.random() * 254);
export const CLIENT_ADDRESS = `10.${byte()}.${byte()}.${byte()}`;

const sharedServer = inject("baseURL");
const originalFetch = globalThis.fetch;
globalThis.fetch = (input: string | URL | Request, init: RequestInit = {}) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if (!sharedServer || !url.startsWith(sharedServer)) return originalFetch(input, init);
  const headers = new Headers(input instanceof Request ? input.headers : undefined);
  for (const [name, value] of new Headers(init.headers)) headers.set(name, value);
  if (!headers.has("x-forwarded-for")) headers.set("x-forwarded-for", CLIENT_ADDRESS);
  return originalFetch(input, { ...init, headers });
};
