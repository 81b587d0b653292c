/**
 * Text set with the font's own metrics (advance widths and kerning from the font file), drawn as
 * glyph outlines. `fitText` shrinks, then wraps, then shortens with an ellipsis, so a line never
 * runs past its box: the layout tests check every size against these same measurements.
 */
import type { OtFont, OtGlyph } from "./fonts.ts";

/** Width of `text` at `size` (same unit as size). */
export function measure(font: OtFont, text: string, size: number, tracking = 0): number {
  const scale = size / font.unitsPerEm;
  let width = 0;
  let previous: ReturnType<OtFont["charToGlyph"]> | null = null;
  const chars = Array.from(text);
  for (const ch of chars) {
    const glyph = font.charToGlyph(ch);
    if (previous) width += font.getKerningValue(previous, glyph) * scale;
    width += (glyph.advanceWidth ?? 0) * scale;
    previous = glyph;
  }
  return width + tracking * size * Math.max(chars.length - 1, 0);
}

type Command =
  | { type: "M" | "L"; x: number; y: number }
  | { type: "Q"; x1: number; y1: number; x: number; y: number }
  | { type: "C"; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
  | { type: "Z" };

/**
 * Each glyph's outline in font units (y down), read from opentype.js once: the creator redraws its
 * texts on every change, and opentype's own path building and number formatting were most of a
 * redraw's time (bench/README.md, posters).
 */
const outlines = new WeakMap<OtGlyph, Command[]>();
function outline(font: OtFont, glyph: OtGlyph): Command[] {
  let commands = outlines.get(glyph);
  if (!commands) {
    commands = glyph.getPath(0, 0, font.unitsPerEm).commands as Command[];
    outlines.set(glyph, commands);
  }
  return commands;
}

/** Rounded to 3 decimals, as opentype's toPathData(3). */
const num = (v: number) => {
  const r = Math.round(v * 1000) / 1000;
  return r === 0 ? "0" : String(r);
};

/** The outline of `text` with its baseline's left end at (x, y), as SVG path data. */
export function textPath(font: OtFont, text: string, x: number, y: number, size: number, tracking = 0): string {
  const scale = size / font.unitsPerEm;
  let cursor = x;
  let previous: OtGlyph | null = null;
  let d = "";
  for (const ch of Array.from(text)) {
    const glyph = font.charToGlyph(ch);
    if (previous) cursor += font.getKerningValue(previous, glyph) * scale;
    if (ch.trim()) {
      const X = (v: number) => num(cursor + v * scale);
      const Y = (v: number) => num(y + v * scale);
      for (const c of outline(font, glyph)) {
        if (c.type === "Z") d += "Z";
        else if (c.type === "Q") d += `Q${X(c.x1)} ${Y(c.y1)} ${X(c.x)} ${Y(c.y)}`;
        else if (c.type === "C") d += `C${X(c.x1)} ${Y(c.y1)} ${X(c.x2)} ${Y(c.y2)} ${X(c.x)} ${Y(c.y)}`;
        else d += `${c.type}${X(c.x)} ${Y(c.y)}`;
      }
    }
    cursor += (glyph.advanceWidth ?? 0) * scale + tracking * size;
    previous = glyph;
  }
  return d;
}

export type FittedText = { lines: string[]; size: number; lineHeight: number; widths: number[] };

export type FitOptions = {
  maxWidth: number;
  /** Height available for all the lines. */
  maxHeight: number;
  maxSize: number;
  minSize: number;
  maxLines?: number;
  tracking?: number;
  lineHeight?: number;
};

function wrap(font: OtFont, text: string, size: number, maxWidth: number, tracking: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (!line || measure(font, candidate, size, tracking) <= maxWidth) line = candidate;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Shortens `text` until it fits `maxWidth` with an ellipsis. */
function ellipsize(font: OtFont, text: string, size: number, maxWidth: number, tracking: number): string {
  if (measure(font, text, size, tracking) <= maxWidth) return text;
  const chars = Array.from(text);
  let n = chars.length;
  while (n > 0 && measure(font, `${chars.slice(0, n).join("").trimEnd()}…`, size, tracking) > maxWidth) n--;
  return n > 0 ? `${chars.slice(0, n).join("").trimEnd()}…` : "";
}

/**
 * The largest size from maxSize down to minSize at which the text fits on one line, else on up to
 * maxLines wrapped lines; at minSize what still does not fit is cut with an ellipsis.
 */
export function fitText(font: OtFont, text: string, options: FitOptions): FittedText {
  const { maxWidth, maxHeight, maxSize, minSize, maxLines = 1, tracking = 0, lineHeight = 1.15 } = options;
  const clean = text.replace(/\s+/g, " ").trim();
  const result = (lines: string[], size: number): FittedText => ({
    lines,
    size,
    lineHeight: size * lineHeight,
    widths: lines.map((l) => measure(font, l, size, tracking)),
  });
  if (!clean) return result([], maxSize);
  const top = Math.min(maxSize, maxHeight / lineHeight);
  const bottom = Math.min(minSize, top);
  // One line: the width grows in proportion to the size, so the size that fits is found at once
  // (a hair under, so rounding never lets the line past its box).
  const unit = measure(font, clean, 1, tracking);
  const oneLine = unit > 0 ? Math.min(top, (maxWidth / unit) * 0.9999) : top;
  let best: { lines: string[]; size: number } | null =
    oneLine >= bottom - 1e-9 ? { lines: [clean], size: oneLine } : null;
  // Wrapping is tried when one line would be much smaller than the box allows.
  if (maxLines > 1 && !(best && best.size >= top * 0.7)) {
    for (let lines = 2; lines <= maxLines; lines++) {
      for (let size = top; size >= Math.max(bottom, best?.size ?? 0) - 1e-9; size *= 0.94) {
        if (size * lineHeight * lines > maxHeight + 1e-9) continue;
        const wrapped = wrap(font, clean, size, maxWidth, tracking);
        if (wrapped.length <= lines && wrapped.every((l) => measure(font, l, size, tracking) <= maxWidth)) {
          if (!best || size > best.size) best = { lines: wrapped, size };
          break;
        }
      }
    }
  }
  if (best) return result(best.lines, best.size);
  const size = Math.max(bottom, Math.min(bottom, maxHeight / (lineHeight * maxLines)));
  const lines = Math.max(1, Math.min(maxLines, Math.floor(maxHeight / (size * lineHeight) + 1e-9)));
  const wrapped = wrap(font, clean, size, maxWidth, tracking);
  const kept = wrapped.slice(0, lines);
  if (wrapped.length > lines) kept[lines - 1] = `${kept[lines - 1]} ${wrapped.slice(lines).join(" ")}`;
  return result(kept.map((l) => ellipsize(font, l, size, maxWidth, tracking)).filter(Boolean), size);
}
