/**
 * Who is calling: the session cookie resolved lazily (only routes and pages that ask pay the
 * query), role guards for routes, and the session cookie itself (httpOnly, SameSite=Lax, Secure
 * over https). Cross-site writes are impossible: SameSite=Lax keeps the cookie off cross-site
 * POSTs, and every /api write must carry the fixed access header, which a cross-site form cannot
 * send and a cross-site fetch cannot send without a CORS preflight we never answer.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import fastifyCookie from "@fastify/cookie";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../../shared/api-error.ts";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../../shared/constants.ts";
import type { UserRole } from "./identity.contract.ts";
import {
  LONG_SESSION_MS,
  type NewSession,
  SESSION_COOKIE,
  type SessionMeta,
  type SessionStore,
  type UserRow,
} from "./sessions.server.ts";

export type Auth = { user: UserRow; sessionId: string; token: string };

/** Where a request comes from, as sessions and account logs record it. */
export type RequestMeta = SessionMeta & { ip: string };

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in member, resolved once per request on first call. */
    auth(): Promise<Auth | null>;
    /**
     * The member auth() found, if it was asked and has answered (null: a visitor); undefined when
     * nobody asked. Never looks the session up itself: for the request's log line.
     */
    authSeen(): Auth | null | undefined;
  }
}

const ROLE_RANK: Record<UserRole, number> = { member: 1, organiser: 2, admin: 3 };

/** Member routes: 401 "identification required" for anonymous callers. */
export async function requireUser(request: FastifyRequest): Promise<Auth> {
  const auth = await request.auth();
  if (!auth) throw new ApiError("LOGIN_REQUIRED");
  return auth;
}

/** Routes above member level: 401 when anonymous, 403 (→ /login) when the role is too low. */
export async function requireRole(request: FastifyRequest, role: UserRole): Promise<Auth> {
  const auth = await requireUser(request);
  if (ROLE_RANK[auth.user.role] < ROLE_RANK[role]) throw new ApiError("FORBIDDEN");
  return auth;
}

/** Spec section 6: an unverified email blocks comments, ratings, posters, organiser actions. */
export function requireVerifiedEmail(user: Pick<UserRow, "emailStatus">) {
  if (user.emailStatus === "unverified") throw new ApiError("EMAIL_VERIFICATION_REQUIRED");
}

/**
 * A request the site itself made — the one rule for every write (platform/http/errors.server.ts'
 * crossSiteGuard) and for the reads that act (a sign-out link, a payment's start): it carries the
 * access header (our pages' fetches, decision 004), or the browser says it comes from this site
 * or from the member themselves (Sec-Fetch-Site same-origin, or none: typed, bookmarked), or, from
 * a browser that does not send Sec-Fetch-Site, its Origin is PUBLIC_URL's. A link, an image or a
 * form on another site is none of these — nor a sibling site ("same-site": another host), nor a
 * request that says nothing.
 */
export function isSameOriginRequest(request: FastifyRequest): boolean {
  if (request.headers[ACCESS_HEADER] === ACCESS_HEADER_VALUE) return true;
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined) return site === "same-origin" || site === "none";
  const origin = request.headers.origin;
  return typeof origin === "string" && origin === new URL(request.server.config.PUBLIC_URL).origin;
}

export function requestMeta(request: FastifyRequest): RequestMeta {
  const agent = request.headers["user-agent"];
  return { ip: request.ip, userAgent: typeof agent === "string" ? agent : null };
}

/** The secret that signs short-lived cookies: configured, or generated once into the data folder. */
export function cookieSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, "secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString("hex");
    try {
      fs.writeFileSync(file, secret, { flag: "wx", mode: 0o600 });
      return secret;
    } catch {
      // Another process wrote it first.
      return fs.readFileSync(file, "utf8").trim();
    }
  }
}

export function isSecure(request: FastifyRequest, publicUrl: string): boolean {
  return request.protocol === "https" || publicUrl.startsWith("https:");
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: NewSession, publicUrl: string) {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: isSecure(request, publicUrl),
    // Without "remember me" the cookie ends with the browser session.
    ...(session.persistent ? { maxAge: Math.floor(LONG_SESSION_MS / 1000) } : {}),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, publicUrl: string) {
  reply.clearCookie(SESSION_COOKIE, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: isSecure(request, publicUrl),
  });
}

export async function installAuth(
  app: FastifyInstance,
  options: { sessions: () => SessionStore; secret: string; publicUrl: string },
) {
  await app.register(fastifyCookie, { secret: options.secret });
  app.decorateRequest("auth", async () => null);
  app.decorateRequest("authSeen", () => undefined);
  app.addHook("onRequest", async (request, reply) => {
    let pending: Promise<Auth | null> | undefined;
    let seen: Auth | null | undefined;
    request.authSeen = () => seen;
    request.auth = () => {
      pending ??= (async () => {
        const token = request.cookies[SESSION_COOKIE];
        if (!token) return null;
        const found = await options.sessions().resolve(token);
        if (!found) {
          clearSessionCookie(request, reply, options.publicUrl);
          return null;
        }
        if (found.renewed && found.session.persistent) {
          setSessionCookie(
            request,
            reply,
            { token, id: found.session.id, expiresAt: found.session.expiresAt, persistent: true },
            options.publicUrl,
          );
        }
        return { user: found.user, sessionId: found.session.id, token };
      })().then((auth) => {
        seen = auth;
        return auth;
      });
      return pending;
    };
  });
}
