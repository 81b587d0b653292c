/**
 * Secrets of the account system: password hashing (argon2id, memory-hard), random tokens, email
 * codes, and constant-time comparison. Nothing here is hand-rolled crypto: argon2 comes from
 * @node-rs/argon2, randomness and hashes from node:crypto.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hkdfSync,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from "node:crypto";
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

/** Codes by mail (an address's check, an organiser's claim) live 15 minutes and allow 5 tries. */
export const CODE_TTL_MS = 15 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
/** A new code at most once a minute ("email already sent"). */
export const RESEND_AFTER_MS = 60 * 1000;

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

/**
 * Encryption at rest of secrets Dossard must read back (a provider's OAuth tokens): AES-256-GCM
 * with a 96-bit random IV per value and a key derived by HKDF-SHA256 from the app secret, one key
 * per `purpose` (decision 031). The stored text is `v1.<iv>.<tag>.<ciphertext>` (base64url); a
 * value changed in the database or read with another secret fails authentication and throws.
 */
export function secretBox(appSecret: string, purpose: string) {
  const key = Buffer.from(hkdfSync("sha256", appSecret, "dossard-secret-box", purpose, 32));
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return ["v1", iv, cipher.getAuthTag(), data]
        .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
        .join(".");
    },
    open(sealed: string): string {
      const [version, iv, tag, data] = sealed.split(".");
      if (version !== "v1" || !iv || !tag || data === undefined) throw new Error("secretBox: not a sealed value");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}
export type SecretBox = ReturnType<typeof secretBox>;
