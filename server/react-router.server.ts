import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createRequestHandler, matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import type { AppContext } from "../app/context.ts";
import { access } from "../features/identity/access.server.ts";
import {
  type CachedPage,
  matchesEtag,
  type PageCache,
  preferredEncoding,
  type RenderedPage,
} from "../platform/http/page-cache.server.ts";

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

/**
 * Which URLs are pages that are the same for everyone: the deepest route matched (the `.data`
 * suffix of client navigations taken off) exports `handle = { shared: true }`.
 */
export function sharedPageMatcher(build: Pick<ServerBuild, "routes">): (url: string) => boolean {
  type Node = RouteObject & { shared: boolean };
  const nodes = new Map<string, Node>();
  for (const entry of Object.values(build.routes)) {
    if (!entry) continue;
    const handle = (entry.module as { handle?: { shared?: unknown } }).handle;
    nodes.set(entry.id, {
      id: entry.id,
      path: entry.path,
      index: entry.index,
      caseSensitive: entry.caseSensitive,
      children: entry.index ? undefined : [],
      shared: handle?.shared === true,
    } as Node);
  }
  const roots: Node[] = [];
  for (const entry of Object.values(build.routes)) {
    if (!entry) continue;
    const node = nodes.get(entry.id) as Node;
    const parent = entry.parentId ? nodes.get(entry.parentId) : undefined;
    if (!parent) roots.push(node);
    else if (parent.children) parent.children.push(node);
    else parent.children = [node];
  }
  // Matching ranks every route at each call: remember the answer per path (bounded).
  const known = new Map<string, boolean>();
  return (url) => {
    const key = url.split("?")[0] ?? "/";
    let answer = known.get(key);
    if (answer === undefined) {
      answer = matchShared(key);
      if (known.size >= 10_000) known.clear();
      known.set(key, answer);
    }
    return answer;
  };
  function matchShared(path: string): boolean {
    let pathname = path;
    if (pathname.endsWith(".data")) pathname = pathname.slice(0, -".data".length) || "/";
    if (pathname === "/_root") pathname = "/";
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return false;
    }
    const matches = matchRoutes(roots, decoded);
    const leaf = matches?.at(-1)?.route as Node | undefined;
    return leaf?.shared === true;
  }
}

/** A cached page: 304 when the client has it, else its body in the best accepted encoding. */
function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: PageCache,
  page: CachedPage,
  cacheControl: string,
) {
  reply.status(page.status);
  for (const [key, value] of page.headers) reply.header(key, value);
  reply.header("etag", page.etag);
  reply.header("vary", "Accept-Encoding, Cookie");
  reply.header("cache-control", cacheControl);
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
 * page cache when one is given (page-cache.server.ts). Members get the pages that are the same for
 * everyone (`handle.shared`) rendered without them — one copy for all members, cached too, private
 * to the browser — and fill in their own parts from the API (decision 024); their other pages are
 * rendered for them, private.
 */
export async function reactRouterPlugin(
  app: FastifyInstance,
  opts: {
    build: ServerBuild;
    /** `member: "shell"` asks for the context of a member's copy of a shared page (no session lookup). */
    context: (request: FastifyRequest, reply: FastifyReply, member?: "shell") => AppContext | Promise<AppContext>;
    mode: string;
    /** Pages are rendered with this origin (PUBLIC_URL), never the request's Host header. */
    origin: string;
    /** The name of the session cookie: requests carrying it get the members' copy of shared pages, else their own render. */
    sessionCookie: string;
    cache?: { store: PageCache; ttlSeconds: number };
    /** Told of every page a browser loads: a document, or a client navigation's data (`.data`). */
    onPageView?: (url: string, userAgent: string | undefined) => void;
  },
) {
  const handle = createRequestHandler(opts.build, opts.mode);
  const isShared = sharedPageMatcher(opts.build);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", (_request, _payload, done) => done(null));
  // Open to all at this level: member pages send visitors to sign in from their loaders.
  app.all("/*", { schema: { hide: true }, config: { access: access.anyone } }, async (request, reply) => {
    const method = request.method.toUpperCase();
    const anonymous = !request.cookies?.[opts.sessionCookie];
    const cache = opts.cache;
    const read = method === "GET" || method === "HEAD";
    if (method === "GET") opts.onPageView?.(request.url, request.headers["user-agent"]);
    const shell = !anonymous && read && isShared(request.url);
    if (read && (anonymous || shell)) {
      // HEAD is answered from the GET render (Node leaves the body out).
      const render = async () =>
        toRendered(
          await handle(
            toWebRequest(request, opts.origin, "GET"),
            await opts.context(request, reply, shell ? "shell" : undefined),
          ),
        );
      const cacheControl = shell ? "private, no-cache" : undefined;
      if (!cache) {
        const page = await render();
        // A shared page that is not there for visitors (a pending event its editor may see, a
        // redirect) is rendered for the member below.
        if (!shell || page.status === 200) {
          if (shell) reply.header("vary", "Cookie");
          return sendRendered(reply, page, cacheControl);
        }
      } else {
        const ttl = cache.ttlSeconds;
        const answer = await cache.store.get(shell ? `member ${request.url}` : request.url, render);
        if (!shell || answer.page.status === 200) {
          if (answer.fromCache)
            return sendCached(
              request,
              reply,
              cache.store,
              answer.page,
              cacheControl ?? `public, max-age=0, s-maxage=${ttl}, stale-while-revalidate=${ttl}`,
            );
          if (shell) reply.header("vary", "Cookie");
          return sendRendered(reply, answer.page, cacheControl);
        }
      }
    }
    const response = await handle(toWebRequest(request, opts.origin), await opts.context(request, reply));
    const page = await toRendered(response);
    if (!anonymous) reply.header("vary", "Cookie");
    return sendRendered(reply, page, anonymous ? undefined : "private, no-cache");
  });
}
