import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { z } from "zod";

/** A host name as DNS allows it (letters, digits, hyphens; dot-separated labels). */
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/** proxy-addr's names for address ranges, accepted in TRUSTED_PROXIES as Fastify does. */
const PROXY_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** An IP address, an IP/prefix range, or one of PROXY_RANGES. */
export function isProxyAddress(value: string): boolean {
  if (PROXY_RANGES.has(value)) return true;
  const [address = "", prefix, ...rest] = value.split("/");
  const version = net.isIP(address);
  if (!version || rest.length) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

/** Every setting the server reads, with its default. Documented in README.md and .env.example. */
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z
    .string()
    .refine((value) => net.isIP(value) !== 0 || HOST_NAME.test(value), "must be an IP address or a host name")
    .default("0.0.0.0"),
  /** Defaults to http://localhost:PORT. */
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  COMMUNES_CSV: z.string().min(1).optional(),
  DEMO_EVENTS: z.coerce.number().int().min(0).max(1_000_000).default(7000),
  DEMO_SEED: z.coerce.number().int().default(2026),
  /** Demo runners (results, badges, planning) made with the demo catalogue, once (decision 034); 0: none. */
  DEMO_MEMBERS: z.coerce.number().int().min(0).max(20_000).default(240),
  /** Ready-made member, organiser and admin accounts with public passwords (decision 023). Unset: in development only. */
  DEMO_ACCOUNTS: z
    .enum(["0", "1", "false", "true"])
    .transform((value) => value === "1" || value === "true")
    .optional(),
  MAP_STYLE_URL: z.string().default(""),
  /** A france-geojson folder for the offline base map instead of the outlines shipped in features/maps/data. */
  MAP_DATA_DIR: z.string().min(1).optional(),
  /**
   * Posters' vector tiles (OpenMapTiles or Protomaps schema) for the terrain, roads and city styles:
   * an XYZ template (`https://…/{z}/{x}/{y}.pbf`) or a PMTiles archive (a path, `file://…`, or
   * `https://….pmtiles` read with Range requests); empty: those styles are disabled (decisions 037, 039).
   */
  POSTER_TILES_URL: z.string().default(""),
  /** Printed on posters drawn from POSTER_TILES_URL. */
  POSTER_TILES_CREDIT: z.string().max(200).default("© OpenStreetMap contributors"),
  /** Posters' elevation tiles, Terrarium or Mapbox terrain-RGB PNGs (an XYZ template, or a PMTiles archive of PNG/WebP), for the relief styles and DEM contours; empty: disabled. */
  POSTER_DEM_URL: z.string().default(""),
  /** How POSTER_DEM_URL's pixels encode metres; empty: a PMTiles archive's metadata "encoding", else "mapbox" when the URL says mapbox or terrain-rgb, else "terrarium". */
  POSTER_DEM_ENCODING: z.enum(["", "terrarium", "mapbox"]).default(""),
  /** Printed on posters drawn from POSTER_DEM_URL; empty: a PMTiles archive's attribution, else the source's host or file name. */
  POSTER_DEM_CREDIT: z.string().max(200).default(""),
  /** Posters' aerial imagery, raster tiles (JPEG/PNG/WebP: an XYZ template or a PMTiles archive) for the satellite style; empty: disabled. */
  POSTER_SATELLITE_URL: z.string().default(""),
  /** Printed on posters drawn from POSTER_SATELLITE_URL; empty: a PMTiles archive's attribution, else the source's host or file name. */
  POSTER_SATELLITE_CREDIT: z.string().max(200).default(""),
  /**
   * The reverse proxies (IPs, CIDR ranges, or loopback/linklocal/uniquelocal) whose X-Forwarded-For
   * and X-Forwarded-Proto are believed; the client is the right-most address none of them is.
   * Unset: nobody's, the client is the connection's address.
   */
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.string().refine(isProxyAddress, {
          error: (issue) => `"${String(issue.input)}" is not an IP address or a CIDR range (a.b.c.d/n)`,
        }),
      ),
    ),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** `human`: one line a person reads per request or message; `json`: pino's records, for log tools. */
  LOG_FORMAT: z.enum(["human", "json"]).default("human"),
  /** The application log on disk, JSON lines the admin's Logs screen searches. Unset: DATA_DIR/logs. */
  LOG_DIR: z.string().min(1).optional(),
  /** A log file is rotated (app.log → app.1.log …) before it grows past this many megabytes. */
  LOG_FILE_SIZE_MB: z.coerce.number().int().min(1).max(1024).default(20),
  /** Log files kept, the one being written included (the oldest is deleted); 0: no log file. */
  LOG_FILE_COUNT: z.coerce.number().int().min(0).max(100).default(5),
  /** How long anonymous pages are served from memory (and by a shared cache in front); 0: never. */
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /** How often counted page views and traffic figures are written to the database (the admin dashboard's delay). */
  STATS_FLUSH_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** What the legal notice and the privacy page say about whoever runs this site (empty: "not provided" for visitors). */
  LEGAL_PUBLISHER: z.string().max(300).default(""),
  LEGAL_ADDRESS: z.string().max(300).default(""),
  LEGAL_EMAIL: z.string().max(200).default(""),
  LEGAL_PHONE: z.string().max(50).default(""),
  LEGAL_DIRECTOR: z.string().max(200).default(""),
  LEGAL_REGISTRATION: z.string().max(200).default(""),
  LEGAL_HOST: z.string().max(300).default(""),
  LEGAL_HOST_ADDRESS: z.string().max(300).default(""),
  /** The seller's intra-community VAT number, printed on receipts. */
  LEGAL_VAT_NUMBER: z.string().max(50).default(""),
  /** smtp://user:pass@host:port or smtps://…; unset: messages are written to DATA_DIR/mail. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
    .optional(),
  MAIL_FROM: z.string().min(3).default("Dossard <no-reply@dossard.fr>"),
  /** Messages one server delivers at once (and pooled SMTP connections it opens). */
  MAIL_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  /** Signs short-lived cookies (OAuth state). Unset: a random secret kept in DATA_DIR/secret. */
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  GOOGLE_CLIENT_ID: z.string().default(""),
  GOOGLE_CLIENT_SECRET: z.string().default(""),
  GOOGLE_AUTHORIZATION_URL: z.url().default("https://accounts.google.com/o/oauth2/v2/auth"),
  GOOGLE_TOKEN_URL: z.url().default("https://oauth2.googleapis.com/token"),
  GOOGLE_USERINFO_URL: z.url().default("https://openidconnect.googleapis.com/v1/userinfo"),
  FACEBOOK_CLIENT_ID: z.string().default(""),
  FACEBOOK_CLIENT_SECRET: z.string().default(""),
  FACEBOOK_AUTHORIZATION_URL: z.url().default("https://www.facebook.com/v23.0/dialog/oauth"),
  FACEBOOK_TOKEN_URL: z.url().default("https://graph.facebook.com/v23.0/oauth/access_token"),
  FACEBOOK_USERINFO_URL: z.url().default("https://graph.facebook.com/v23.0/me"),
  STRAVA_CLIENT_ID: z.string().default(""),
  STRAVA_CLIENT_SECRET: z.string().default(""),
  STRAVA_AUTHORIZATION_URL: z.url().default("https://www.strava.com/oauth/authorize"),
  STRAVA_TOKEN_URL: z.url().default("https://www.strava.com/oauth/token"),
  STRAVA_API_URL: z.url().default("https://www.strava.com/api/v3"),
  /** Revokes a member's grant when they disconnect Strava (features/activities). */
  STRAVA_DEAUTHORIZE_URL: z.url().default("https://www.strava.com/oauth/deauthorize"),
  /** Echoed by Strava in the push subscription's validation request; unset: no webhook accepted. */
  STRAVA_WEBHOOK_VERIFY_TOKEN: z.string().default(""),
  /** The push subscription's id (Strava sends it with every event); unset: not checked. */
  STRAVA_SUBSCRIPTION_ID: z.string().default(""),
  /** Stripe's secret API key (sk_…). Unset: payment is shown as unavailable. */
  STRIPE_SECRET_KEY: z.string().default(""),
  /** Signs the webhooks Stripe sends (whsec_…); the webhook refuses everything without it. */
  STRIPE_WEBHOOK_SECRET: z.string().default(""),
  /** Another address for Stripe's API (a local stand-in in tests); Stripe's own when unset. */
  STRIPE_API_BASE: z.url().optional(),
});

export type Config = Omit<z.infer<typeof schema>, "PUBLIC_URL"> & {
  PUBLIC_URL: string;
  dataDir: string;
  /** LOG_DIR, or DATA_DIR/logs, absolute. */
  logDir: string;
};

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    // A list's entry is reported under the setting's name (TRUSTED_PROXIES, not TRUSTED_PROXIES.1).
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const publicUrl = (parsed.data.PUBLIC_URL ?? `http://localhost:${parsed.data.PORT}`).replace(/\/+$/, "");
  const dataDir = path.resolve(parsed.data.DATA_DIR);
  const logDir = parsed.data.LOG_DIR ? path.resolve(parsed.data.LOG_DIR) : path.join(dataDir, "logs");
  return { ...parsed.data, PUBLIC_URL: publicUrl, dataDir, logDir };
}

/**
 * The data folder (and the database folder in it, when there is one) must take new files: checked
 * before the database opens, so a read-only folder is named instead of failing deep in PGlite.
 */
export function checkDataDir(config: Pick<Config, "dataDir" | "DATABASE_URL">): void {
  const folders = [config.dataDir];
  const pgdata = path.join(config.dataDir, "pgdata");
  if (!config.DATABASE_URL && fs.existsSync(pgdata)) folders.push(pgdata);
  for (const folder of folders) {
    try {
      fs.mkdirSync(folder, { recursive: true });
      const probe = path.join(folder, `.write-check-${process.pid}`);
      fs.writeFileSync(probe, "");
      fs.rmSync(probe);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new ConfigError(`Invalid configuration:\n  DATA_DIR: the folder ${folder} is not writable (${code})`);
    }
  }
}

/**
 * HOST and PORT can be listened on: tried (and released) at start, before the database and the
 * catalogue load, so a wrong address stops the server at once instead of after the loading.
 */
export async function checkListen(config: Pick<Config, "HOST" | "PORT">): Promise<void> {
  const server = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen({ host: config.HOST, port: config.PORT, exclusive: true }, resolve);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    const setting = code === "EADDRINUSE" || code === "EACCES" ? "PORT" : "HOST";
    throw new ConfigError(
      `Invalid configuration:\n  ${setting}: cannot listen on ${config.HOST}:${config.PORT} (${code})`,
    );
  } finally {
    await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  }
}
