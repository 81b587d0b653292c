/**
 * The style a map draws: the hosted provider's when MAP_STYLE_URL is set, else Dossard's own
 * offline base map (decision 016), whose style lives on this server in the page's language.
 * Called in the browser only (MapLibre wants an absolute URL).
 */
export function mapStyleUrl(configured: string | undefined, locale: string): string {
  if (configured) return configured;
  return new URL(`/basemap/style.json?lang=${locale === "en" ? "en" : "fr"}`, window.location.href).href;
}
