/** Regions and departments as the filter panel and the landing pages use them. */
export type RegionRef = { code: string; name: string; slug: string };
export type DepartmentRef = { code: string; name: string; slug: string; regionCode: string };

type Raw = Record<string, unknown>;
// One collator each, built once: `localeCompare` with a locale builds a new one on every call,
// which made sorting the ~100 departments a visible part of every uncached page render.
const byFrenchName = new Intl.Collator("fr");
const byNumericCode = new Intl.Collator("en", { numeric: true });
const str = (value: unknown) => (typeof value === "string" ? value : value == null ? "" : String(value));

/** Regions from the geo service, whatever the list's wrapping, in name order. */
export function toRegionRefs(list: unknown): RegionRef[] {
  const items = Array.isArray(list) ? list : (((list as Raw | null)?.regions as unknown[]) ?? []);
  return (items as Raw[])
    .map((r) => ({ code: str(r.code), name: str(r.name), slug: str(r.slug) }))
    .filter((r) => r.code && r.name)
    .sort((a, b) => byFrenchName.compare(a.name, b.name));
}

/** Departments from the geo service, in code order (01, 02, 2A, 2B, …, 974). */
export function toDepartmentRefs(list: unknown): DepartmentRef[] {
  const items = Array.isArray(list) ? list : (((list as Raw | null)?.departments as unknown[]) ?? []);
  return (items as Raw[])
    .map((d) => ({
      code: str(d.code),
      name: str(d.name),
      slug: str(d.slug),
      regionCode: str(d.regionCode ?? (d.region as Raw | undefined)?.code),
    }))
    .filter((d) => d.code && d.name)
    .sort((a, b) => byNumericCode.compare(a.code, b.code));
}
