import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createRequestHandler, type ServerBuild } from "react-router";
import type { AppContext } from "../app/context.ts";
import { access } from "../features/accounts/access.server.ts";
import {
  type CachedPage,
  matchesEtag,
  type PageCache,
  preferredEncoding,
  type RenderedPage,
} from "./page-cache.server.ts";

function toWebRequest(request: FastifyRequest, origin: string, method = request.method.toUpperCase()): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else headers.set(key, String(value));
  }
  const controller = new AbortController();
  request.raw.on("close", () => {
    if (!request.raw.complete) controller.abort();
  });
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(new URL(request.raw.url ?? "/", origin), {
    method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(request.raw) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
}

/** The whole answer in memory: pages are rendered whole anyway (entry.server.tsx). */
async function toRendered(response: Response): Promise<RenderedPage> {
  const headers: [string, string][] = [];
  for (const [key, value] of response.headers) if (key !== "set-cookie") headers.push([key, value]);
  for (const cookie of response.headers.getSetCookie()) headers.push(["set-cookie", cookie]);
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : Buffer.alloc(0);
  return { status: response.status, headers, body };
}

function sendRendered(reply: FastifyReply, page: RenderedPage, cacheControl?: string) {
  reply.status(page.status);
  const cookies: string[] = [];
  for (const [key, value] of page.headers) {
    if (key === "set-cookie") cookies.push(value);
    else reply.header(key, value);
  }
  if (cookies.length) reply.header("set-cookie", cookies);
  if (cacheControl && !reply.hasHeader("cache-control")) reply.header("cache-control", cacheControl);
  return reply.send(page.body);
}

/** A cached page: 304 when the client has it, else its body in the best accepted encoding. */
function sendCached(request: FastifyRequest, reply: FastifyReply, cache: PageCache, page: CachedPage, ttl: number) {
  reply.status(page.status);
  for (const [key, value] of page.headers) reply.header(key, value);
  reply.header("etag", page.etag);
  reply.header("vary", "Accept-Encoding, Cookie");
  reply.header("cache-control", `public, max-age=0, s-maxage=${ttl}, stale-while-revalidate=${ttl}`);
  if (matchesEtag(request.headers["if-none-match"], page.etag)) {
    reply.status(304);
    return reply.send();
  }
  const encoding = preferredEncoding(request.headers["accept-encoding"]);
  if (!encoding) return reply.send(page.body);
  reply.header("content-encoding", encoding);
  return reply.send(cache.encoded(page, encoding));
}

/**
 * Serves every page through React Router. Registered last, in its own scope, where request bodies
 * are left unparsed for React Router's actions. Pages for visitors without a session come from the
 * page cache when one is given (page-cache.server.ts); pages of signed-in members are private.
 */
export async function reactRouterPlugin(
  app: FastifyInstance,
  opts: {
    build: ServerBuild;
    context: (request: FastifyRequest, reply: FastifyReply) => AppContext | Promise<AppContext>;
    mode: string;
    /** Pages are rendered with this origin (PUBLIC_URL), never the request's Host header. */
    origin: string;
    /** The name of the session cookie: requests carrying it are never answered from the cache. */
    sessionCookie: string;
    cache?: { store: PageCache; ttlSeconds: number };
  },
) {
  const handle = createRequestHandler(opts.build, opts.mode);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", (_request, _payload, done) => done(null));
  // Open to all at this level: member pages send visitors to sign in from their loaders.
  app.all("/*", { schema: { hide: true }, config: { access: access.anyone } }, async (request, reply) => {
    const method = request.method.toUpperCase();
    const anonymous = !request.cookies?.[opts.sessionCookie];
    const cache = opts.cache;
    if (cache && anonymous && (method === "GET" || method === "HEAD")) {
      // HEAD is answered from the GET render (Node leaves the body out).
      const render = async () =>
        toRendered(await handle(toWebRequest(request, opts.origin, "GET"), await opts.context(request, reply)));
      const answer = await cache.store.get(request.url, render);
      if (answer.fromCache) return sendCached(request, reply, cache.store, answer.page, cache.ttlSeconds);
      return sendRendered(reply, answer.page);
    }
    const response = await handle(toWebRequest(request, opts.origin), await opts.context(request, reply));
    const page = await toRendered(response);
    if (!anonymous) reply.header("vary", "Cookie");
    return sendRendered(reply, page, anonymous ? undefined : "private, no-cache");
  });
}
