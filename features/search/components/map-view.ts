/** The first view of the search map. */

export type Bounds = [west: number, south: number, east: number, north: number];

/** Metropolitan France with Corsica. */
export const METROPOLE: Bounds = [-5.3, 41.3, 9.7, 51.2];

const inside = (b: Bounds, lat: number, lng: number) => lng >= b[0] && lng <= b[2] && lat >= b[1] && lat <= b[3];

/**
 * Around a place: its radius. Otherwise the races of metropolitan France when there are some, so
 * a few overseas races do not shrink the mainland to a dot; undefined lets the map fit everything
 * (overseas only).
 */
export function searchMapBounds(
  points: readonly { lat: number; lng: number }[],
  place?: { lat: number; lng: number; radius: number } | null,
): Bounds | undefined {
  if (place) {
    const dLat = place.radius / 111;
    const dLng = place.radius / (111 * Math.max(0.2, Math.cos((place.lat * Math.PI) / 180)));
    return [place.lng - dLng, place.lat - dLat, place.lng + dLng, place.lat + dLat];
  }
  const mainland = points.filter((p) => inside(METROPOLE, p.lat, p.lng));
  if (mainland.length === 0) return undefined;
  if (mainland.length === points.length) return undefined;
  const lats = mainland.map((p) => p.lat);
  const lngs = mainland.map((p) => p.lng);
  const pad = 0.3;
  return [Math.min(...lngs) - pad, Math.min(...lats) - pad, Math.max(...lngs) + pad, Math.max(...lats) + pad];
}
