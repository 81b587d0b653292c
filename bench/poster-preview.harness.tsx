/**
 * The creator's live preview alone, for the posters bench's browser part (bench/posters.ts): the
 * renderer and PosterSvg, as the creator page uses them (features/posters/components/PosterCreator.tsx
 * memoises the scene on the design and draws it with PosterSvg), in a page of their own. Bundled
 * by Vite and loaded in Chromium; `window.posterBench` changes the design and reports how long the
 * change took until the frame after it was painted.
 */
import { useMemo, useState } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { PosterSvg } from "../features/posters/components/PosterSvg.tsx";
import type { PosterDesign } from "../features/posters/poster.contract.ts";
import { FONT_FILES, type PosterFontSet, parseFont } from "../features/posters/render/fonts.ts";
import type { TrackPoint } from "../features/posters/render/geo.ts";
import { renderPoster } from "../features/posters/render/render.ts";

type Setup = { design: PosterDesign; points: TrackPoint[] };
declare global {
  interface Window {
    posterBench: {
      start(setup: Setup): Promise<void>;
      /**
       * Applies `patch`: the ms spent rendering (renderer + React, until the DOM is updated) and
       * until the next frame was painted.
       */
      change(patch: Partial<PosterDesign>): Promise<{ script: number; frame: number }>;
    };
  }
}

let setDesign: (d: PosterDesign) => void = () => {};
let current: PosterDesign;

function Preview({ initial, points, fonts }: { initial: PosterDesign; points: TrackPoint[]; fonts: PosterFontSet }) {
  const [design, set] = useState(initial);
  setDesign = set;
  const scene = useMemo(() => renderPoster(design, { points }, fonts), [design, points, fonts]);
  return <PosterSvg scene={scene} label={design.title} className="poster" />;
}

const painted = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

window.posterBench = {
  async start({ design, points }) {
    const entries = await Promise.all(
      Object.entries(FONT_FILES).map(async ([id, f]) => {
        const load = async (file: string) => parseFont(await (await fetch(`/fonts/${file}`)).arrayBuffer());
        return [id, { regular: await load(f.regular), bold: await load(f.bold) }] as const;
      }),
    );
    const fonts = Object.fromEntries(entries) as PosterFontSet;
    current = design;
    const root = createRoot(document.getElementById("root") as HTMLElement);
    flushSync(() => root.render(<Preview initial={design} points={points} fonts={fonts} />));
    await painted();
  },
  async change(patch) {
    const t0 = performance.now();
    current = { ...current, ...patch };
    flushSync(() => setDesign(current));
    const script = performance.now() - t0;
    await painted();
    return { script, frame: performance.now() - t0 };
  },
};
