import { island } from "../../../shared/ui/island.tsx";

/**
 * The event page's finishers block (decision 030): nothing on the server (the page is shared and
 * the list is fetched by the browser), its code fetched when it nears the viewport or when idle.
 */
export const EventFinishersIsland = island(() => import("./EventFinishers.tsx").then((m) => m.default), {
  fallback: null,
});
