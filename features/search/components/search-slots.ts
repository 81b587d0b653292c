import type { ReactNode } from "react";

/**
 * Parts of the search's results that other features fill in (app/routes, through
 * app/components/search-slots.tsx): the member's heart on each race (engagement) and "alert me"
 * on a search (alerts). The search feature knows neither of them.
 */
export type SearchSlots = {
  /** On each race's card, list row and map popup, placed by `className`. */
  favorite?: (race: { id: number; name: string }, className: string) => ReactNode;
  /** Beside the active filters: an alert on this search (its query string), under `label`. */
  alert?: (query: string, label: string) => ReactNode;
};
