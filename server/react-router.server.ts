import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createRequestHandler, type ServerBuild } from "react-router";
import type { AppContext } from "../app/context.ts";

function toWebRequest(request: FastifyRequest, origin: string): Request {
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
  const method = request.method.toUpperCase();
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(new URL(request.raw.url ?? "/", origin), {
    method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(request.raw) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
}

async function sendWebResponse(reply: FastifyReply, response: Response): Promise<void> {
  reply.status(response.status);
  for (const [key, value] of response.headers) {
    if (key === "set-cookie") continue;
    reply.header(key, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length) reply.header("set-cookie", cookies);
  if (!response.body) return reply.send();
  return reply.send(Readable.fromWeb(response.body as never));
}

/**
 * Serves every page through React Router. Registered last, in its own scope, where request bodies
 * are left unparsed for React Router's actions.
 */
export async function reactRouterPlugin(
  app: FastifyInstance,
  opts: {
    build: ServerBuild;
    context: (request: FastifyRequest, reply: FastifyReply) => AppContext | Promise<AppContext>;
    mode: string;
  },
) {
  const handle = createRequestHandler(opts.build, opts.mode);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", (_request, _payload, done) => done(null));
  app.all("/*", { schema: { hide: true } }, async (request, reply) => {
    const context = await opts.context(request, reply);
    const response = await handle(toWebRequest(request, `http://${request.host}`), context);
    return sendWebResponse(reply, response);
  });
}
