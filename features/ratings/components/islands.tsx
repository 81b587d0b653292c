import { island } from "../../../shared/ui/island.tsx";

/**
 * The event page's ratings block, out of the page's first load (decision 030): server-rendered
 * (the edition's average and count), live once it nears the viewport or the browser is idle.
 */
export const RatingBlockIsland = island(() => import("./RatingBlock.tsx").then((m) => m.RatingBlock), {
  fallback: <div className="min-h-40 rounded-2xl border border-slate-200 bg-white shadow-sm" aria-hidden="true" />,
});
