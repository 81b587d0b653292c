/**
 * The chunks of a PNG file read from its bytes (PNG specification §5), for tests that check what
 * other software reads: the physical size (pHYs) a print shop or an image viewer takes.
 */
import { crc32 } from "node:zlib";

export type PngChunk = { type: string; data: Buffer; crcOk: boolean };

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function pngChunks(png: Buffer): PngChunk[] {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error("not a PNG");
  const chunks: PngChunk[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    const crc = png.readUInt32BE(at + 8 + length);
    chunks.push({ type, data, crcOk: crc32(png.subarray(at + 4, at + 8 + length)) === crc });
    at += 12 + length;
  }
  return chunks;
}

/** The pHYs chunk: pixels per unit on each axis and the unit (1: the metre), or null without one. */
export function pngPhysicalSize(png: Buffer): { x: number; y: number; unit: number } | null {
  const chunk = pngChunks(png).find((c) => c.type === "pHYs");
  return chunk ? { x: chunk.data.readUInt32BE(0), y: chunk.data.readUInt32BE(4), unit: chunk.data.readUInt8(8) } : null;
}

/** Dots per inch from pixels per metre, as image viewers show it. */
export const dpiOf = (pixelsPerMetre: number) => Math.round(pixelsPerMetre * 0.0254);
