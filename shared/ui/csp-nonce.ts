/**
 * Lets Vite's loader of lazy chunks pass the page's Content-Security-Policy: its preload links
 * need the script nonce, which it reads from `<meta property="csp-nonce">` (what Vite's own
 * `html.cspNonce` option would write). The nonce is copied from a script the server rendered.
 * Call before a dynamic import().
 */
export function shareCspNonce(): void {
  if (typeof document === "undefined") return;
  if (document.querySelector('meta[property="csp-nonce"]')) return;
  const nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce;
  if (!nonce) return;
  const meta = document.createElement("meta");
  meta.setAttribute("property", "csp-nonce");
  meta.nonce = nonce;
  document.head.appendChild(meta);
}
