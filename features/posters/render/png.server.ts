/** The scene's SVG drawn to PNG by resvg at the print resolution (300 dpi by default). */
import { crc32 } from "node:zlib";
import { Resvg } from "@resvg/resvg-js";
import type { Scene } from "./render.ts";
import { sceneToSvg } from "./svg.ts";

export function pngSize(scene: Pick<Scene, "width" | "height">, dpi: number): [number, number] {
  return [Math.round((scene.width / 25.4) * dpi), Math.round((scene.height / 25.4) * dpi)];
}

/** End of the IHDR chunk: the 8-byte signature, then IHDR's length, type, 13 bytes of data and CRC. */
const AFTER_IHDR = 8 + 4 + 4 + 13 + 4;

/**
 * The PNG with its resolution said in a pHYs chunk (pixels per metre, unit 1), right after IHDR:
 * without it, viewers and print shops take 72 dpi (an A3 at 300 dpi would open as 123 × 175 cm).
 * resvg writes none.
 */
export function withResolution(png: Buffer, dpi: number): Buffer {
  if (png.toString("latin1", 12, 16) !== "IHDR") throw new Error("not a PNG");
  const perMetre = Math.round(dpi / 0.0254);
  const chunk = Buffer.alloc(4 + 4 + 9 + 4);
  chunk.writeUInt32BE(9, 0);
  chunk.write("pHYs", 4, "latin1");
  chunk.writeUInt32BE(perMetre, 8);
  chunk.writeUInt32BE(perMetre, 12);
  chunk.writeUInt8(1, 16);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 17)), 17);
  return Buffer.concat([png.subarray(0, AFTER_IHDR), chunk, png.subarray(AFTER_IHDR)]);
}

export function sceneToPng(scene: Scene, dpi = 300): Buffer {
  // Both sides rounded from the paper's size: fitting the width alone would let resvg round the
  // height down (A4 portrait: 3507 px instead of 3508).
  const resvg = new Resvg(sceneToSvg(scene, { pixels: pngSize(scene, dpi) }), {
    fitTo: { mode: "original" },
    font: { loadSystemFonts: false },
    background: undefined,
  });
  return withResolution(resvg.render().asPng(), dpi);
}
