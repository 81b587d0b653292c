/**
 * The state of an admin list in its address (so a filtered, sorted page can be bookmarked, shared
 * and reloaded): `sort`, `dir`, `page` and the list's own filters. Pure: loaders, routes and the
 * AdminTable component read and write it the same way.
 */

export type SortDir = "asc" | "desc";
export type TableState<Sort extends string> = { sort: Sort; dir: SortDir; page: number };

/** Reads sort, direction and page from the address; anything unknown falls back to the defaults. */
export function readTableState<Sort extends string>(
  params: URLSearchParams,
  options: { sorts: readonly Sort[]; sort: Sort; dir?: SortDir; maxPage?: number },
): TableState<Sort> {
  const asked = params.get("sort");
  const sort = (options.sorts as readonly string[]).includes(asked ?? "") ? (asked as Sort) : options.sort;
  const dirParam = params.get("dir");
  const dir: SortDir = dirParam === "asc" || dirParam === "desc" ? dirParam : (options.dir ?? "desc");
  const page = Number(params.get("page") ?? "1");
  const max = options.maxPage ?? 10_000;
  return { sort, dir, page: Number.isInteger(page) && page >= 1 && page <= max ? page : 1 };
}

/** The address of the same list with some parameters changed (null or "" removes one); the page resets unless given. */
export function tableHref(search: string, changes: Record<string, string | number | null>): string {
  const params = new URLSearchParams(search);
  if (!("page" in changes)) params.delete("page");
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === "" || (key === "page" && value === 1)) params.delete(key);
    else params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : "?";
}

/** Pages needed for `total` rows. */
export const pageCount = (total: number, pageSize: number): number => Math.max(1, Math.ceil(total / pageSize));
