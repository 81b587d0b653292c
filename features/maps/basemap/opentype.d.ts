/** The part of opentype.js (which ships no types) that the glyph maker uses. */
declare module "opentype.js" {
  type Path = {
    getBoundingBox(): { x1: number; y1: number; x2: number; y2: number };
    toPathData(options?: { decimalPlaces?: number; flipY?: boolean }): string;
  };
  type Glyph = { index: number; advanceWidth?: number; getPath(x: number, y: number, fontSize: number): Path };
  type Font = { unitsPerEm: number; ascender: number; charToGlyph(char: string): Glyph | null };
  const opentype: { parse(buffer: ArrayBuffer): Font };
  export default opentype;
}
