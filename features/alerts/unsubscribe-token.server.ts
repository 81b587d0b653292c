/**
 * The token of an alert mail's unsubscribe link: who (member id) and what (an alert kind, or one
 * saved search), signed with an HMAC-SHA256 of a key derived from the app secret, so the link
 * works without signing in and cannot be forged for another member or another alert.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { ALERT_KINDS, type AlertKind } from "../../shared/constants.ts";

export type UnsubscribeTarget = { userId: number; kind: AlertKind; savedSearchId?: number };

/** A key of its own: a token of this kind can never pass for a cookie signature or the reverse. */
function keyOf(secret: string): Buffer {
  return createHmac("sha256", secret).update("dossard alerts unsubscribe v1").digest();
}

function signature(key: Buffer, body: string): string {
  return createHmac("sha256", key).update(body).digest("base64url");
}

export function unsubscribeTokens(secret: string) {
  const key = keyOf(secret);
  return {
    /** `<user>.<kind>[.<saved search>].<signature>`: URL-safe, no padding. */
    sign(target: UnsubscribeTarget): string {
      const body = [target.userId, target.kind, ...(target.savedSearchId ? [target.savedSearchId] : [])].join(".");
      return `${body}.${signature(key, body)}`;
    },
    /** The target of a well-signed token, else null. */
    verify(token: string | undefined | null): UnsubscribeTarget | null {
      if (!token || token.length > 200) return null;
      const parts = token.split(".");
      if (parts.length < 3 || parts.length > 4) return null;
      const given = Buffer.from(parts.pop() as string, "base64url");
      const body = parts.join(".");
      const expected = Buffer.from(signature(key, body), "base64url");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const [user, kind, search] = parts;
      const userId = Number(user);
      if (!Number.isSafeInteger(userId) || userId <= 0) return null;
      if (!(ALERT_KINDS as readonly string[]).includes(kind)) return null;
      if (search === undefined) return { userId, kind: kind as AlertKind };
      const savedSearchId = Number(search);
      if (!Number.isSafeInteger(savedSearchId) || savedSearchId <= 0) return null;
      return { userId, kind: kind as AlertKind, savedSearchId };
    },
  };
}
export type UnsubscribeTokens = ReturnType<typeof unsubscribeTokens>;
