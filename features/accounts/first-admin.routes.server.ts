/**
 * Administering a fresh install from the browser, and from the command line while it runs.
 *
 * - A fresh install has no admin: the server prints a setup link at start
 *   (`/installation/<token>`), whose page creates the first admin and signs them in
 *   (`POST /api/setup`). The token is derived from the server's secret, so every instance accepts
 *   it and nothing is stored; it stops working once an admin exists.
 * - `npm run user:create-admin` opens the database itself, except when the embedded database is in
 *   use by a running server (PGlite allows one process per folder): it then asks that server,
 *   through `POST /api/internal/create-admin`, which only answers the same machine and only with a
 *   token derived from the same secret (whoever can read the data folder's secret).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ApiError } from "../../shared/api-error.ts";
import type { Locale } from "../../shared/constants.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { access } from "../identity/access.server.ts";
import { cookieSecret, requestMeta, setSessionCookie } from "../identity/auth.server.ts";
import { emailSchema, firstAdminBodySchema, meResponseSchema, newPasswordSchema } from "./accounts.contract.ts";

export const CONTROL_HEADER = "x-dossard-control";
/** Written into the data folder while the server listens: how the command line finds it. */
export const SERVER_FILE = "server.json";

const derive = (secret: string, purpose: string) =>
  createHmac("sha256", secret).update(`dossard:${purpose}`).digest("base64url").slice(0, 32);

/** The token of the first-admin setup link. */
export const setupToken = (secret: string) => derive(secret, "first-admin-setup");
/** The token the command line shows the running server. */
export const controlToken = (secret: string) => derive(secret, "local-control");

function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The setup page's address in a language. */
export function setupPath(secret: string, locale: Locale = "fr"): string {
  return pagePath("setup", locale, { token: setupToken(secret) });
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

const createAdminBodySchema = z.object({
  email: emailSchema,
  password: newPasswordSchema.optional(),
  firstName: z.string().trim().min(1).max(80).optional(),
});

export const firstAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const secret = cookieSecret(app.config.SESSION_SECRET, app.config.dataDir);
  const accounts = () => app.services.accounts;

  app.post(
    "/api/setup",
    {
      config: {
        access: access.secret("the setup link's token (body.token)"),
        openapi: { errors: ["SETUP_LINK_INVALID", "SETUP_DONE", "EMAIL_ALREADY_USED"] },
      },
      schema: {
        tags: ["account"],
        summary: "Create the first admin of a fresh install with the setup link's token, and sign them in",
        body: firstAdminBodySchema,
        response: { 201: meResponseSchema },
      },
    },
    async (request, reply) => {
      if (!sameToken(request.body.token, setupToken(secret))) throw new ApiError("SETUP_LINK_INVALID");
      const { user, session } = await accounts().setupFirstAdmin(request.body, requestMeta(request));
      setSessionCookie(request, reply, session, app.config.PUBLIC_URL);
      reply.header("Cache-Control", "private, no-store");
      return reply.status(201).send({ user: await accounts().me(user.id) });
    },
  );

  app.post(
    "/api/internal/create-admin",
    {
      config: { access: access.secret("a loopback connection and the control token header") },
      schema: { hide: true, body: createAdminBodySchema },
    },
    async (request) => {
      // The socket's own address: a forwarded header cannot make a remote caller local.
      if (!LOOPBACK.has(request.socket.remoteAddress ?? "")) throw new ApiError("FORBIDDEN");
      if (!sameToken(request.headers[CONTROL_HEADER], controlToken(secret))) throw new ApiError("FORBIDDEN");
      return accounts().createAdmin(request.body);
    },
  );
};

/** What the server writes into the data folder while it listens (removed when it stops). */
export type ServerFile = { pid: number; port: number };

export function writeServerFile(dataDir: string, port: number) {
  fs.mkdirSync(dataDir, { recursive: true });
  const content: ServerFile = { pid: process.pid, port };
  fs.writeFileSync(path.join(dataDir, SERVER_FILE), JSON.stringify(content), { mode: 0o600 });
}

export function removeServerFile(dataDir: string) {
  try {
    const file = path.join(dataDir, SERVER_FILE);
    const content = JSON.parse(fs.readFileSync(file, "utf8")) as ServerFile;
    if (content.pid === process.pid) fs.rmSync(file);
  } catch {
    // Already gone.
  }
}

/** The running server of this data folder, if its process is alive. */
export function runningServer(dataDir: string): ServerFile | null {
  try {
    const content = JSON.parse(fs.readFileSync(path.join(dataDir, SERVER_FILE), "utf8")) as ServerFile;
    process.kill(content.pid, 0);
    return content;
  } catch {
    return null;
  }
}
