/** The scene as an SVG document (millimetres: width="297mm", viewBox in mm). */
import type { Prim, Scene } from "./render.ts";

const esc = (s: string) => s.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
const n = (v: number) => Number(v.toFixed(3)).toString();

export function primToSvg(p: Prim, index = 0): string {
  switch (p.t) {
    case "image": {
      const id = `clip${index}`;
      const c = p.clip;
      return `<clipPath id="${id}"><rect x="${n(c.x)}" y="${n(c.y)}" width="${n(c.w)}" height="${n(c.h)}"/></clipPath><image clip-path="url(#${id})" x="${n(p.x)}" y="${n(p.y)}" width="${n(p.w)}" height="${n(p.h)}" preserveAspectRatio="none" href="${esc(p.href)}"${p.opacity != null ? ` opacity="${n(p.opacity)}"` : ""}/>`;
    }
    case "rect":
      return `<rect x="${n(p.x)}" y="${n(p.y)}" width="${n(p.w)}" height="${n(p.h)}" fill="${esc(p.fill)}"${p.opacity != null ? ` opacity="${n(p.opacity)}"` : ""}/>`;
    case "circle":
      return `<circle cx="${n(p.cx)}" cy="${n(p.cy)}" r="${n(p.r)}" fill="${esc(p.fill ?? "none")}"${p.stroke ? ` stroke="${esc(p.stroke)}" stroke-width="${n(p.width ?? 0)}"` : ""}/>`;
    case "path": {
      const attrs = [`d="${p.d}"`, `fill="${esc(p.fill ?? "none")}"`];
      if (p.stroke) attrs.push(`stroke="${esc(p.stroke)}"`, `stroke-width="${n(p.width ?? 0)}"`);
      if (p.round) attrs.push(`stroke-linecap="round"`, `stroke-linejoin="round"`);
      if (p.opacity != null) attrs.push(`opacity="${n(p.opacity)}"`);
      if (p.evenOdd) attrs.push(`fill-rule="evenodd"`);
      return `<path ${attrs.join(" ")}/>`;
    }
  }
}

/**
 * `pixels`: the document's size in pixels instead of millimetres, the viewBox stretched to fill it
 * exactly (a raster export whose width and height are both rounded from the paper's; the stretch
 * is below a pixel).
 */
export function sceneToSvg(scene: Scene, options: { title?: string; pixels?: [number, number] } = {}): string {
  const title = options.title ? `<title>${esc(options.title)}</title>` : "";
  const size = options.pixels
    ? `width="${options.pixels[0]}" height="${options.pixels[1]}" preserveAspectRatio="none"`
    : `width="${n(scene.width)}mm" height="${n(scene.height)}mm"`;
  return `<svg xmlns="http://www.w3.org/2000/svg" ${size} viewBox="0 0 ${n(scene.width)} ${n(scene.height)}">${title}${scene.prims.map((p, i) => primToSvg(p, i)).join("")}</svg>`;
}
