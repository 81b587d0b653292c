/** Backslashes (read as "/" by browsers) and control characters (dropped by URL parsers). */
function hasUnsafeCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}

/** Any origin stands for the site's own: only whether resolving keeps it matters. */
const SITE = "http://dossard.invalid";

/**
 * A path on this site to go to after signing in, normalised (dot segments resolved), or null.
 *
 * The value is resolved against the site's origin with the URL parser (as a browser resolves a
 * Location header) and kept only when the origin is unchanged; then the normalised path itself is
 * resolved again and must land on the same address. That second step is what refuses
 * `/.//evil.example` and `/..//evil.example`: they resolve on the site, to the path
 * `//evil.example`, which a browser reads as another host when it is sent back as a Location.
 * Values that do not start with a single "/" (`//host`, `https://…`, `javascript:…`, relative
 * paths) and values with backslashes or control characters are refused before parsing.
 * Used by the sign-in, registration and verification pages and by social sign-in.
 */
export function safeNext(value: string | null | undefined): string | null {
  if (!value || value.length > 1000) return null;
  if (!value.startsWith("/") || value.startsWith("//") || hasUnsafeCharacter(value)) return null;
  try {
    const url = new URL(value, SITE);
    if (url.origin !== SITE) return null;
    const path = `${url.pathname}${url.search}${url.hash}`;
    return new URL(path, SITE).href === url.href ? path : null;
  } catch {
    return null;
  }
}
