import type { Scene } from "../render/render.ts";

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
      {scene.prims.map((p, i) => {
        const key = i;
        if (p.t === "image")
          return (
            <g key={key}>
              <clipPath id={`poster-clip-${key}`}>
                <rect x={p.clip.x} y={p.clip.y} width={p.clip.w} height={p.clip.h} />
              </clipPath>
              <image
                clipPath={`url(#poster-clip-${key})`}
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
        if (p.t === "rect")
          return <rect key={key} x={p.x} y={p.y} width={p.w} height={p.h} fill={p.fill} opacity={p.opacity} />;
        if (p.t === "circle")
          return (
            <circle
              key={key}
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
            key={key}
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
      })}
    </svg>
  );
}
