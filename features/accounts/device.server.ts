/**
 * "This browser has signed into these accounts before": a signed, httpOnly cookie listing the ids
 * of the last few accounts signed into from it. It lets a member past the per-account sign-in limit
 * that guessing from many addresses fills (see accounts.service login); it proves nothing else, and
 * nobody can write it for an account they have not signed into.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { isSecure } from "../identity/auth.server.ts";

export const DEVICE_COOKIE = "dossard_device";
const MAX_ACCOUNTS = 5;
const ONE_YEAR_SECONDS = 365 * 24 * 3600;

/** The accounts this browser signed into, from its signed cookie (none when absent or tampered with). */
export function knownAccounts(request: FastifyRequest): number[] {
  const raw = request.cookies[DEVICE_COOKIE];
  if (!raw) return [];
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return [];
  return unsigned.value
    .split(".")
    .map(Number)
    .filter((id) => Number.isSafeInteger(id) && id > 0)
    .slice(0, MAX_ACCOUNTS);
}

/** After a successful sign-in: the account joins the browser's list (most recent first). */
export function rememberDevice(request: FastifyRequest, reply: FastifyReply, userId: number, publicUrl: string) {
  const ids = [userId, ...knownAccounts(request).filter((id) => id !== userId)].slice(0, MAX_ACCOUNTS);
  reply.setCookie(DEVICE_COOKIE, ids.join("."), {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: isSecure(request, publicUrl),
    signed: true,
    maxAge: ONE_YEAR_SECONDS,
  });
}
