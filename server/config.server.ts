import path from "node:path";
import { z } from "zod";

/** Every setting the server reads, with its default. Documented in README.md and .env.example. */
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  /** Defaults to http://localhost:PORT. */
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  COMMUNES_CSV: z.string().min(1).optional(),
  DEMO_EVENTS: z.coerce.number().int().min(0).max(1_000_000).default(3200),
  DEMO_SEED: z.coerce.number().int().default(2026),
  MAP_STYLE_URL: z.string().default(""),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** How long anonymous pages are served from memory (and by a shared cache in front); 0: never. */
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
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
});

export type Config = Omit<z.infer<typeof schema>, "PUBLIC_URL"> & { PUBLIC_URL: string; dataDir: string };

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const publicUrl = (parsed.data.PUBLIC_URL ?? `http://localhost:${parsed.data.PORT}`).replace(/\/+$/, "");
  return { ...parsed.data, PUBLIC_URL: publicUrl, dataDir: path.resolve(parsed.data.DATA_DIR) };
}
