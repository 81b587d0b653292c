import { apiFetch } from "../../shared/api-client.ts";

/** Communes as the place autocomplete shows them, read from the geo API's answers. */
export type City = {
  /** INSEE code, what the search's `place` takes. */
  code: string;
  name: string;
  postalCode?: string;
  departmentCode?: string;
  departmentName?: string;
};

type Raw = Record<string, unknown>;

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() ? value : typeof value === "number" ? String(value) : undefined;

/** One commune from an API object; null when it has no code or name. */
export function cityFrom(raw: unknown): City | null {
  if (!raw || typeof raw !== "object") return null;
  const item = raw as Raw;
  const code = text(item.code) ?? text(item.inseeCode) ?? text(item.insee);
  const name = text(item.name) ?? text(item.nom);
  if (!code || !name) return null;
  const postalCodes = Array.isArray(item.postalCodes) ? item.postalCodes : [];
  const department = item.department && typeof item.department === "object" ? (item.department as Raw) : undefined;
  return {
    code,
    name,
    postalCode: text(item.postalCode) ?? text(postalCodes[0]) ?? text(item.zipcode),
    departmentCode: text(item.departmentCode) ?? text(department?.code),
    departmentName: text(item.departmentName) ?? text(department?.name),
  };
}

/** The communes of a POST /api/find-city answer (a list, or an object holding one). */
export function citiesFromBody(body: unknown): City[] {
  const object = body && typeof body === "object" && !Array.isArray(body) ? (body as Raw) : undefined;
  const list = Array.isArray(body)
    ? body
    : [object?.cities, object?.communes, object?.results, object?.items].find(Array.isArray);
  return ((list as unknown[] | undefined) ?? []).map(cityFrom).filter((city): city is City => city !== null);
}

/** The commune of a POST /api/geocode-location answer (the commune itself, or wrapped). */
export function cityFromBody(body: unknown): City | null {
  if (!body || typeof body !== "object") return null;
  const object = body as Raw;
  return cityFrom(object.commune) ?? cityFrom(object.city) ?? cityFrom(object.place) ?? cityFrom(object);
}

export type CityCentre = { lat: number; lng: number };

/**
 * Communes matching what was typed (POST /api/find-city, 8 at most), with the centre of those
 * the API gives one for; none when the request fails. Aborting `signal` rejects, as fetch does.
 */
export async function findCities(
  query: string,
  signal: AbortSignal,
): Promise<{ cities: City[]; centres: Map<string, CityCentre> }> {
  const response = await apiFetch("/api/find-city", {
    method: "POST",
    body: JSON.stringify({ q: query, limit: 8 }),
    signal,
  });
  const body = response.ok ? await response.json() : null;
  const centres = new Map<string, CityCentre>();
  for (const raw of (body?.cities ?? []) as { code: string; lat?: unknown; lng?: unknown }[]) {
    if (typeof raw.lat === "number" && typeof raw.lng === "number")
      centres.set(raw.code, { lat: raw.lat, lng: raw.lng });
  }
  return { cities: citiesFromBody(body), centres };
}
