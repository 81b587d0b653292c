/** Backslashes (read as "/" by browsers) and control characters (dropped by URL parsers). */
function hasUnsafeCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}

/**
 * A path on this site to go to after signing in: it starts with a single "/" and stays on the
 * same origin once resolved; anything else (`//host`, `/\host`, "/<tab>/host", `https://…`) gives
 * null. Used by the sign-in pages and by social sign-in.
 */
export function safeNext(value: string | null | undefined): string | null {
  if (!value || value.length > 1000) return null;
  if (!value.startsWith("/") || value.startsWith("//") || hasUnsafeCharacter(value)) return null;
  const base = "http://dossard.invalid";
  try {
    const url = new URL(value, base);
    return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
}
