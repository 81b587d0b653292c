/**
 * The scene as a vector PDF (pdfkit): the same shapes as the SVG, in points (1 mm = 72/25.4 pt),
 * text included as outlines — nothing is rasterised and no font is needed to open it.
 */
import PDFDocument from "pdfkit";
import type { Scene } from "./render.ts";

const PT_PER_MM = 72 / 25.4;

export function sceneToPdf(scene: Scene, info: { title?: string } = {}): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [scene.width * PT_PER_MM, scene.height * PT_PER_MM],
    margin: 0,
    compress: true,
    info: { Title: info.title ?? "Dossard", Producer: "Dossard", Creator: "Dossard" },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.scale(PT_PER_MM);
  for (const p of scene.prims) {
    doc.save();
    if (p.t !== "circle" && p.opacity != null) doc.opacity(p.opacity);
    if (p.t === "image") {
      // The relief raster: cut to the map frame, stretched over its box.
      doc.rect(p.clip.x, p.clip.y, p.clip.w, p.clip.h).clip();
      doc.image(p.href, p.x, p.y, { width: p.w, height: p.h });
    } else if (p.t === "rect") {
      doc.rect(p.x, p.y, p.w, p.h).fill(p.fill);
    } else if (p.t === "circle") {
      doc.circle(p.cx, p.cy, p.r);
      if (p.fill && p.stroke) doc.lineWidth(p.width ?? 0).fillAndStroke(p.fill, p.stroke);
      else if (p.fill) doc.fill(p.fill);
      else if (p.stroke) doc.lineWidth(p.width ?? 0).stroke(p.stroke);
    } else {
      doc.path(p.d);
      if (p.round) doc.lineCap("round").lineJoin("round");
      if (p.stroke) doc.lineWidth(p.width ?? 0).stroke(p.stroke);
      else if (p.fill) doc.fill(p.fill, p.evenOdd ? "even-odd" : "non-zero");
    }
    doc.restore();
  }
  doc.end();
  return done;
}
