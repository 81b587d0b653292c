import { z } from "zod";
import { numeric, text } from "../../shared/input.ts";

export const regionSchema = z.object({
  code: z.string(),
  name: z.string(),
  slug: z.string(),
});
export type Region = z.infer<typeof regionSchema>;

export const departmentSchema = z.object({
  code: z.string(),
  name: z.string(),
  slug: z.string(),
  regionCode: z.string(),
});
export type Department = z.infer<typeof departmentSchema>;

export const countrySchema = z.object({
  code: z.string(),
  name: z.string(),
});
export type Country = z.infer<typeof countrySchema>;

/** A commune as the place autocomplete and the reverse geocoder return it. */
export const citySchema = z.object({
  /** INSEE code, e.g. "42218". */
  code: z.string(),
  name: z.string(),
  slug: z.string(),
  postalCodes: z.array(z.string()),
  departmentCode: z.string(),
  departmentName: z.string(),
  regionCode: z.string(),
  population: z.number().int(),
  lat: z.number(),
  lng: z.number(),
});
export type City = z.infer<typeof citySchema>;

export const MAX_CITY_RESULTS = 20;
export const DEFAULT_CITY_RESULTS = 8;
/** Farthest a point may be from a commune centre for the reverse geocoder to name it. */
export const GEOCODE_MAX_KM = 50;

export const findCityBodySchema = z.object({
  /** A name (accents, case and hyphens do not matter), a postal code or its first digits. */
  q: text().trim().min(1).max(100),
  limit: numeric.pipe(z.number().int().min(1).max(MAX_CITY_RESULTS)).default(DEFAULT_CITY_RESULTS),
});

export const geocodeBodySchema = z.object({
  lat: numeric.pipe(z.number().min(-90).max(90)),
  lng: numeric.pipe(z.number().min(-180).max(180)),
});

export const geocodeResultSchema = z.object({
  city: citySchema,
  /** Great-circle km from the given point to the commune's centre. */
  distanceKm: z.number(),
});
export type GeocodeResult = z.infer<typeof geocodeResultSchema>;

/** What the base map needs from the reference data (features/maps). */
export type MapReference = {
  /** Every commune, most populous first. */
  towns: { code: string; name: string; lat: number; lng: number; population: number }[];
  /** Department code → region code. */
  departmentRegions: Record<string, string>;
};
