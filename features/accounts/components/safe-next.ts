/** A same-site path to go to after signing in; anything else (other hosts, schemes) is dropped. */
export function safeNext(value: string | null | undefined): string | null {
  if (!value?.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  if (/[\r\n]/.test(value)) return null;
  return value;
}
