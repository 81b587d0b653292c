/**
 * Whole-page cache for anonymous visitors (decision 013). A page rendered for a visitor without a
 * session is the same for every such visitor until the catalogue changes, so it is rendered once,
 * kept with its headers, an ETag and its brotli and gzip encodings, and served from memory:
 * - fresh for `ttlMs`, then served stale for up to another `ttlMs` while one request renders it
 *   again in the background (no visitor waits for a refresh, no stampede of identical renders);
 * - concurrent misses of one page share one render;
 * - `clear()` forgets everything: called after every successful write, so a change is visible on the
 *   next request of this instance (other instances see it within `ttlMs`);
 * - bounded by entry count and bytes, least recently used first out.
 * Only 200 answers without Set-Cookie and without `Cache-Control: private|no-store` are kept.
 */
import { createHash } from "node:crypto";
import zlib from "node:zlib";

export type RenderedPage = { status: number; headers: [string, string][]; body: Buffer };

export type CachedPage = RenderedPage & {
  key: string;
  etag: string;
  storedAt: number;
  /** Compressed once, on the first visitor who accepts the encoding. */
  encodings: { br?: Buffer; gzip?: Buffer };
  size: number;
};

export type PageCacheOptions = {
  ttlMs: number;
  maxEntries?: number;
  maxBytes?: number;
  now?: () => number;
};

export type PageCacheStats = { hits: number; stale: number; misses: number; entries: number; bytes: number };

export function etagOf(body: Buffer): string {
  return `"${createHash("sha1").update(body).digest("base64url")}"`;
}

/** Whether an If-None-Match header names this ETag (weak or strong, in a list). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  return Boolean(ifNoneMatch?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag));
}

/** A body in brotli or gzip; `quality` is brotli's (0–11), gzip always at its best level. */
export function compress(body: Buffer, encoding: "br" | "gzip", quality: number): Buffer {
  return encoding === "br"
    ? zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : zlib.gzipSync(body, { level: 9 });
}

export function isStorable(page: RenderedPage): boolean {
  if (page.status !== 200) return false;
  for (const [name, value] of page.headers) {
    const key = name.toLowerCase();
    if (key === "set-cookie") return false;
    if (key === "cache-control" && /\b(private|no-store)\b/i.test(value)) return false;
  }
  return true;
}

export function createPageCache(options: PageCacheOptions) {
  const maxEntries = options.maxEntries ?? 2_000;
  const maxBytes = options.maxBytes ?? 128 * 1024 * 1024;
  const now = options.now ?? Date.now;
  const entries = new Map<string, CachedPage>();
  const rendering = new Map<string, Promise<RenderedPage>>();
  let bytes = 0;
  /** Renders started before a clear() must not store what they read before the write. */
  let generation = 0;
  const stats = { hits: 0, stale: 0, misses: 0 };

  function remove(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.size;
  }

  function store(key: string, page: RenderedPage): CachedPage {
    remove(key);
    const entry: CachedPage = {
      ...page,
      key,
      etag: etagOf(page.body),
      storedAt: now(),
      encodings: {},
      size: page.body.length,
    };
    if (entry.size > maxBytes / 4) return entry;
    entries.set(key, entry);
    bytes += entry.size;
    for (const [oldest] of entries) {
      if (entries.size <= maxEntries && bytes <= maxBytes) break;
      remove(oldest);
    }
    return entry;
  }

  /** One render per key at a time; stored when storable and no clear() happened meanwhile. */
  function renderOnce(key: string, render: () => Promise<RenderedPage>): Promise<RenderedPage> {
    let pending = rendering.get(key);
    if (!pending) {
      const startedIn = generation;
      pending = render().then(
        (page) => {
          rendering.delete(key);
          if (startedIn === generation && isStorable(page)) store(key, page);
          return page;
        },
        (error: unknown) => {
          rendering.delete(key);
          throw error;
        },
      );
      rendering.set(key, pending);
    }
    return pending;
  }

  return {
    /**
     * The page for `key`: from memory when fresh (or stale, refreshing it behind), else rendered.
     * `fromCache` tells whether the answer may be served with the cache's headers.
     */
    async get(
      key: string,
      render: () => Promise<RenderedPage>,
    ): Promise<{ page: CachedPage; fromCache: true } | { page: RenderedPage; fromCache: false }> {
      const entry = entries.get(key);
      const age = entry ? now() - entry.storedAt : Number.POSITIVE_INFINITY;
      if (entry && age < options.ttlMs) {
        stats.hits++;
        // Most recently used last.
        entries.delete(key);
        entries.set(key, entry);
        return { page: entry, fromCache: true };
      }
      if (entry && age < 2 * options.ttlMs) {
        stats.stale++;
        renderOnce(key, render).catch(() => {
          // The stale copy keeps being served; the next request tries again.
        });
        return { page: entry, fromCache: true };
      }
      stats.misses++;
      const page = await renderOnce(key, render);
      const stored = entries.get(key);
      return stored && stored.body === page.body ? { page: stored, fromCache: true } : { page, fromCache: false };
    },

    /** The body in an encoding, compressed on first use and kept with the entry. */
    encoded(entry: CachedPage, encoding: "br" | "gzip"): Buffer {
      let body = entry.encodings[encoding];
      if (!body) {
        body = compress(entry.body, encoding, 9);
        entry.encodings[encoding] = body;
        if (entries.get(entry.key) === entry) {
          entry.size += body.length;
          bytes += body.length;
        }
      }
      return body;
    },

    clear() {
      generation++;
      entries.clear();
      bytes = 0;
    },

    stats(): PageCacheStats {
      return { ...stats, entries: entries.size, bytes };
    },
  };
}

export type PageCache = ReturnType<typeof createPageCache>;

/** br, then gzip, when the client accepts it (q=0 refuses); null for identity. */
export function preferredEncoding(acceptEncoding: string | undefined): "br" | "gzip" | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    accepted.set(name, q ? Number(q.slice(2)) : 1);
  }
  const quality = (name: string) => accepted.get(name) ?? (accepted.has("*") ? (accepted.get("*") ?? 0) : 0);
  if (quality("br") > 0) return "br";
  if (quality("gzip") > 0) return "gzip";
  return null;
}
