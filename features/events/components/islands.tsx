import { island } from "../../../shared/ui/island.tsx";

/*
 * Parts of the event page that are drawn on the server and need their code only for what they do
 * after (the chart's pointer readout, the share buttons' copy), out of the page's first load
 * (decision 030).
 */

export const ElevationChartIsland = island(() => import("./ElevationChart.tsx").then((m) => m.ElevationChart), {
  fallback: <div className="aspect-[3/1] rounded-xl bg-slate-50" aria-hidden="true" />,
});

export const ShareButtonsIsland = island(() => import("./ShareButtons.tsx").then((m) => m.ShareButtons), {
  fallback: <div className="h-10" aria-hidden="true" />,
});
