import { memo } from "react";
import type { Prim, Scene } from "../render/render.ts";

/** Same shape as before: the renderer hands back the same path strings while the track and its frame stay. */
function samePrim(a: { p: Prim; index: number }, b: { p: Prim; index: number }): boolean {
  if (a.index !== b.index) return false;
  if (a.p === b.p) return true;
  const x = a.p as Record<string, unknown>;
  const y = b.p as Record<string, unknown>;
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => x[k] === y[k]);
}

/**
 * One shape of the scene. Memoised on its fields: after a change of title, the map's paths (tens of
 * thousands of coordinates) are neither re-created nor compared by React, only the texts that moved.
 */
const Shape = memo(function Shape({ p, index }: { p: Prim; index: number }) {
  if (p.t === "image")
    return (
      <g>
        <clipPath id={`poster-clip-${index}`}>
          <rect x={p.clip.x} y={p.clip.y} width={p.clip.w} height={p.clip.h} />
        </clipPath>
        <image
          clipPath={`url(#poster-clip-${index})`}
          x={p.x}
          y={p.y}
          width={p.w}
          height={p.h}
          preserveAspectRatio="none"
          href={p.href}
          opacity={p.opacity}
        />
      </g>
    );
  if (p.t === "rect") return <rect x={p.x} y={p.y} width={p.w} height={p.h} fill={p.fill} opacity={p.opacity} />;
  if (p.t === "circle")
    return (
      <circle
        cx={p.cx}
        cy={p.cy}
        r={p.r}
        fill={p.fill ?? "none"}
        stroke={p.stroke}
        strokeWidth={p.stroke ? p.width : undefined}
      />
    );
  return (
    <path
      d={p.d}
      fill={p.fill ?? "none"}
      stroke={p.stroke}
      strokeWidth={p.stroke ? p.width : undefined}
      strokeLinecap={p.round ? "round" : undefined}
      strokeLinejoin={p.round ? "round" : undefined}
      opacity={p.opacity}
      fillRule={p.evenOdd ? "evenodd" : undefined}
    />
  );
}, samePrim);

/** The renderer's scene as React SVG elements: the same shapes as the exported SVG (render/svg.ts). */
export function PosterSvg({ scene, label, className }: { scene: Scene; label: string; className?: string }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox={`0 0 ${scene.width} ${scene.height}`}
      role="img"
      aria-label={label}
      className={className}
    >
      {/* The scene's order is its drawing order; a shape's place in it is its identity. */}
      {scene.prims.map((p, i) => (
        <Shape key={i} p={p} index={i} />
      ))}
    </svg>
  );
}
