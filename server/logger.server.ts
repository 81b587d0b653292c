import type { FastifyServerOptions } from "fastify";

/**
 * The server's logger: requests are logged with the path only (query strings can carry secrets:
 * reset links' tokens, OAuth codes) and the client's address as Fastify resolved it (request.ip:
 * the connection's, or through TRUSTED_PROXIES the forwarded one), never a header taken on trust.
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions["logger"] {
  return {
    level,
    ...(stream ? { stream } : {}),
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: req.url.split("?")[0],
        remoteAddress: req.ip,
      }),
    },
  };
}
