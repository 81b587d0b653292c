import { island } from "../../../shared/ui/island.tsx";

const fallback = <div className="min-h-48 rounded-2xl border border-slate-200 bg-white shadow-sm" aria-hidden="true" />;

/**
 * The event page's comments and encouragement wall, out of the page's first load (decision 030):
 * server-rendered, live (their messages fetched, their forms working) once they near the viewport
 * or the browser is idle.
 */
export const CommentsIsland = island(() => import("./CommentsSection.tsx").then((m) => m.CommentsSection), {
  fallback,
});

export const EncouragementWallIsland = island(
  () => import("./EncouragementWall.tsx").then((m) => m.EncouragementWall),
  { fallback },
);
