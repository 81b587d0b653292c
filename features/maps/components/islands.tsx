import { island } from "../../../shared/ui/island.tsx";

/**
 * RaceMap out of a page's first load (decision 030): the server draws its SVG stand-in
 * (StaticMap) as always; the component that swaps in MapLibre near the viewport comes after.
 */
export const RaceMapIsland = island(() => import("./RaceMap.tsx").then((m) => m.RaceMap), {
  fallback: <div className="aspect-[4/3] rounded-xl bg-slate-100" aria-hidden="true" />,
});
