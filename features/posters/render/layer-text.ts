/**
 * The text block: a rule on the map's side, then the title, the subtitle and the figures in
 * columns (value over label), each fitted to its share of the block with the font's metrics.
 * Isomorphic, pure.
 */
import type { PosterDesign } from "../poster.contract.ts";
import { posterFigures } from "./figures.ts";
import type { PosterFontSet } from "./fonts.ts";
import type { Frame } from "./geo.ts";
import type { Prim, TextBox } from "./scene.ts";
import { fitText, textPath } from "./text.ts";

/** `totalM`: the track's length, for the distance and pace when the design gives none. */
export function textBlockPrims(
  design: PosterDesign,
  text: Frame,
  font: PosterFontSet[keyof PosterFontSet],
  short: number,
  totalM: number | null,
): { prims: Prim[]; boxes: TextBox[] } {
  const prims: Prim[] = [];
  const boxes: TextBox[] = [];
  const colors = design.colors;
  const rule = design.textPosition === "bottom" ? text.y : text.y + text.h;
  prims.push({ t: "rect", x: text.x, y: rule - short * 0.0004, w: text.w, h: short * 0.0008, fill: colors.accent });
  const pad = text.h * 0.06;
  /** A text fitted to a box (its size, lines and widths), laid out later. */
  const fitIn = (face: typeof font.bold, value: string, w: number, h: number, maxLines: number) =>
    fitText(face, value, { maxWidth: w, maxHeight: h, maxSize: h, minSize: h * 0.2, maxLines });
  /** Draws a fitted text centred in [x, x + w], its first line's top at `top`; returns its height. */
  const draw = (
    name: string,
    face: typeof font.bold,
    fit: ReturnType<typeof fitText>,
    x: number,
    w: number,
    top: number,
    color: string,
  ) => {
    if (!fit.lines.length) return 0;
    const ascent = (face.ascender / face.unitsPerEm) * fit.size * 0.92;
    fit.lines.forEach((line, i) => {
      prims.push({
        t: "path",
        d: textPath(face, line, x + (w - (fit.widths[i] as number)) / 2, top + i * fit.lineHeight + ascent, fit.size),
        fill: color,
      });
    });
    const widest = Math.max(...fit.widths);
    const block = fit.lines.length * fit.lineHeight;
    boxes.push({ name, x: x + (w - widest) / 2, y: top, w: widest, h: block, lines: fit.lines.length, size: fit.size });
    return block;
  };
  const blockHeight = (fit: ReturnType<typeof fitText>) => fit.lines.length * fit.lineHeight;

  // Title, subtitle, then the figures in columns (value over label): each fitted to its share of
  // the block, then stacked with gaps in proportion to their sizes and centred in the block, so a
  // title shrunk to fit its width leaves no hole.
  const title = fitIn(font.bold, design.title, text.w, text.h * 0.38, 2);
  const subtitle = fitIn(font.regular, design.subtitle, text.w, text.h * 0.12, 1);
  const figures = posterFigures(design, totalM);
  // One row; on a portrait poster, five or six figures go in two rows of three (larger than six in
  // one narrow row). A landscape text block is wide and low: one row keeps them larger there.
  const twoRows = figures.length > 4 && design.orientation === "portrait";
  const rows = twoRows ? [figures.slice(0, 3), figures.slice(3)] : figures.length ? [figures] : [];
  const colW = (row: typeof figures) => text.w / row.length;
  // All values share one size (the smallest that fits each column), and so do the labels, which
  // stay a readable fraction of the values.
  const sharedSize = (strings: [string, number][], face: typeof font.bold, h: number) =>
    Math.min(...strings.map(([v, w]) => fitIn(face, v, w * 0.9, h, 1).size));
  const cells = rows.flatMap((row) => row.map((f) => ({ f, w: colW(row) })));
  const valueSize = cells.length
    ? sharedSize(
        cells.map((c) => [c.f.value, c.w]),
        font.bold,
        text.h * (rows.length > 1 ? 0.1 : 0.16),
      )
    : 0;
  const labelSize = cells.length
    ? Math.min(
        valueSize * 0.42,
        sharedSize(
          cells.map((c) => [c.f.label.toUpperCase(), c.w]),
          font.regular,
          valueSize * 0.5 * 1.15,
        ),
      )
    : 0;
  const rowH = valueSize * 1.15 + labelSize * 0.35 + labelSize * 1.15;
  const titleH = blockHeight(title);
  const subtitleH = blockHeight(subtitle);
  const figuresH = rows.length * rowH;
  const gaps = [
    subtitleH ? Math.max(subtitle.size * 0.3, text.h * 0.015) : 0,
    figuresH ? Math.max(valueSize * 0.7, text.h * 0.04) : 0,
    rows.length > 1 ? valueSize * 0.45 : 0,
  ];
  const room = text.h - 2 * pad;
  const content = titleH + subtitleH + figuresH;
  const gapSum = gaps[0] + gaps[1] + gaps[2];
  // Gaps shrink if the texts at their largest leave less room than that.
  const gapScale = Math.min(1, Math.max(0, room - content) / Math.max(1e-9, gapSum));
  let cursor = text.y + pad + Math.max(0, (room - content - gapSum * gapScale) / 2);
  cursor += draw("title", font.bold, title, text.x, text.w, cursor, colors.text);
  if (subtitleH) cursor += gaps[0] * gapScale;
  cursor += draw("subtitle", font.regular, subtitle, text.x, text.w, cursor, colors.text);
  if (figuresH) cursor += gaps[1] * gapScale;
  for (const row of rows) {
    const w = colW(row);
    row.forEach((f, i) => {
      const x = text.x + w * i + w * 0.05;
      const value = fitIn(font.bold, f.value, w * 0.9, valueSize * 1.15, 1);
      draw(`figure-${f.key}`, font.bold, value, x, w * 0.9, cursor, colors.text);
      const label = fitIn(font.regular, f.label.toUpperCase(), w * 0.9, labelSize * 1.15, 1);
      const labelTop = cursor + valueSize * 1.15 + labelSize * 0.35;
      draw(`label-${f.key}`, font.regular, label, x, w * 0.9, labelTop, colors.accent);
    });
    cursor += rowH + gaps[2] * gapScale;
  }
  return { prims, boxes };
}
