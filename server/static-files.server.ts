/**
 * The client build served from memory. Its files are few and small (a few MB with their brotli and
 * gzip copies, written once beside them by precompress.server.ts) and never change while the
 * server runs, so each is read once at start-up with its ETag and headers ready: a request costs
 * no file-system call (a file server's open/stat/read/close per request held it to ~3,000 req/s).
 */
import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { access } from "../features/identity/access.server.ts";
import { compress, etagOf, matchesEtag, preferredEncoding } from "../platform/http/page-cache.server.ts";
import { filesBelow, precompressAssets } from "./precompress.server.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** A file of the build: the log file keeps no line for it unless it fails (server/app.server.ts). */
    staticFile?: boolean;
  }
}

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".gif": "image/gif",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".pbf": "application/x-protobuf",
  ".pmtiles": "application/octet-stream",
};

type StaticFile = {
  type: string;
  etag: string;
  cacheControl: string;
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
};

function readOptional(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Every file under `root` (compressed copies aside), keyed by URL path. */
export function loadStaticFiles(root: string): Map<string, StaticFile> {
  precompressAssets(root);
  const files = new Map<string, StaticFile>();
  for (const file of filesBelow(root)) {
    if (/\.(br|gz|tmp)$/.test(file)) continue;
    const body = fs.readFileSync(file);
    const urlPath = `/${path.relative(root, file).split(path.sep).join("/")}`;
    files.set(urlPath, {
      type: TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream",
      etag: etagOf(body),
      // Hashed build assets never change; the rest (favicon, images) may.
      cacheControl: urlPath.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "public, max-age=3600",
      body,
      br: readOptional(`${file}.br`),
      gzip: readOptional(`${file}.gz`),
    });
  }
  return files;
}

/** A file made by the server itself (the pages' catalogues), compressed once, kept a year. */
export function memoryFile(urlPath: string, body: Buffer): [string, StaticFile] {
  return [
    urlPath,
    {
      type: TYPES[path.extname(urlPath).toLowerCase()] ?? "application/octet-stream",
      etag: etagOf(body),
      cacheControl: "public, max-age=31536000, immutable",
      body,
      br: compress(body, "br", 11),
      gzip: compress(body, "gzip", 9),
    },
  ];
}

function send(request: FastifyRequest, reply: FastifyReply, file: StaticFile) {
  reply.header("content-type", file.type);
  reply.header("cache-control", file.cacheControl);
  reply.header("etag", file.etag);
  if (file.br || file.gzip) reply.header("vary", "Accept-Encoding");
  if (matchesEtag(request.headers["if-none-match"], file.etag)) {
    reply.status(304);
    return reply.send();
  }
  const encoding = preferredEncoding(request.headers["accept-encoding"]);
  const encoded = encoding === "br" ? file.br : encoding === "gzip" ? file.gzip : undefined;
  if (encoding && encoded) {
    reply.header("content-encoding", encoding);
    return reply.send(encoded);
  }
  return reply.send(file.body);
}

/** One GET/HEAD route per file of the client build (when given) and per file made in memory. */
export async function staticFilesPlugin(
  app: FastifyInstance,
  options: { root?: string; files?: { path: string; body: Buffer }[] },
) {
  const files = options.root ? loadStaticFiles(options.root) : new Map<string, StaticFile>();
  for (const made of options.files ?? []) {
    const [urlPath, file] = memoryFile(made.path, made.body);
    files.set(urlPath, file);
  }
  for (const [urlPath, file] of files) {
    app.route({
      method: ["GET", "HEAD"],
      url: urlPath,
      schema: { hide: true },
      config: { access: access.anyone, staticFile: true },
      handler: (request, reply) => send(request, reply, file),
    });
  }
}
