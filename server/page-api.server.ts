import type { FastifyInstance, FastifyRequest } from "fastify";
import type { PageApi } from "../app/context.ts";
import { isSameOriginRequest } from "../features/identity/auth.server.ts";
import { apiErrorBody } from "../shared/api-error.ts";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../shared/constants.ts";

const FORWARDED = ["cookie", "user-agent", "accept-language"] as const;

/** The API as the visitor of this page request (see PageApi). */
export function pageApi(app: FastifyInstance, request: FastifyRequest): PageApi {
  return async ({ url, body, locale, method = "POST" }) => {
    // A page POST from another site could sign a visitor into someone else's account (the session
    // cookie is set on the answer) or write in their name: the site's one rule (crossSiteGuard
    // already refused it before the page's action ran; kept here beside the call it protects).
    if (!isSameOriginRequest(request))
      return { status: 403, body: apiErrorBody("CROSS_SITE_REQUEST", locale), cookies: [] };
    const send = method === "POST";
    const headers: Record<string, string> = {
      [ACCESS_HEADER]: ACCESS_HEADER_VALUE,
      ...(send ? { "content-type": "application/json" } : {}),
      "x-locale": locale,
    };
    for (const name of FORWARDED) {
      const value = request.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    const response = await app.inject({
      method,
      url,
      ...(send ? { payload: JSON.stringify(body) } : {}),
      headers,
      remoteAddress: request.ip,
    });
    const setCookie = response.headers["set-cookie"];
    const cookies = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
    let json: unknown = null;
    try {
      json = response.json();
    } catch {
      // Not JSON: the caller treats it as a generic error.
    }
    return { status: response.statusCode, body: json, cookies };
  };
}
