/**
 * Secrets of the account system: password hashing (argon2id, memory-hard), random tokens, email
 * codes, and constant-time comparison. Nothing here is hand-rolled crypto: argon2 comes from
 * @node-rs/argon2, randomness and hashes from node:crypto.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { VERIFICATION_CODE_LENGTH } from "../../shared/constants.ts";

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** A hash of nothing anyone knows, verified when the account is missing so timing reveals nothing. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    decoy ??= hashPassword(randomBytes(16).toString("hex"));
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

/** A URL-safe random token (session cookies, reset links): 256 bits. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The spec's 5-digit verification code, uniformly drawn. */
export function randomCode(): string {
  return String(randomInt(0, 10 ** VERIFICATION_CODE_LENGTH)).padStart(VERIFICATION_CODE_LENGTH, "0");
}

/** SHA-256 hex: what the database keeps of a token or code. */
export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** Compares two hex digests without leaking where they differ. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}
