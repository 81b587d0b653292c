/** The scene's SVG drawn to PNG by resvg at the print resolution (300 dpi by default). */
import { Resvg } from "@resvg/resvg-js";
import type { Scene } from "./render.ts";
import { sceneToSvg } from "./svg.ts";

export function pngSize(scene: Pick<Scene, "width" | "height">, dpi: number): [number, number] {
  return [Math.round((scene.width / 25.4) * dpi), Math.round((scene.height / 25.4) * dpi)];
}

export function sceneToPng(scene: Scene, dpi = 300): Buffer {
  // Both sides rounded from the paper's size: fitting the width alone would let resvg round the
  // height down (A4 portrait: 3507 px instead of 3508).
  const resvg = new Resvg(sceneToSvg(scene, { pixels: pngSize(scene, dpi) }), {
    fitTo: { mode: "original" },
    font: { loadSystemFonts: false },
    background: undefined,
  });
  return resvg.render().asPng();
}
