import { useId } from "react";
import { boxView, FRANCE_BOUNDS, splitAtBreaks } from "../geometry.ts";
import type { RaceMapMarker } from "./markers.ts";

const WIDTH = 480;
const HEIGHT = 300;

export const MARKER_COLORS = {
  place: "#d9480f",
  event: "#d9480f",
  start: "#15803d",
  finish: "#132238",
} as const;

/** Degrees of latitude a map of a single place spans (about 6 km). */
const PLACE_SPAN = 0.055;

const coordinate = (n: number, limit: number) => Math.max(-limit, Math.min(limit, n)).toFixed(4);

/**
 * The base map under the drawing: an SVG image of the outlines and towns of the area (the offline
 * base map's, /basemap/outline.svg), twice the box in each direction so that it fills frames of
 * another shape (the box is centred in them). Linear in longitude and latitude, like the view.
 */
function outlineUrl(view: NonNullable<ReturnType<typeof boxView>>): string {
  const [west, north] = view.lngLatAt(-WIDTH / 2, -HEIGHT / 2);
  const [east, south] = view.lngLatAt(WIDTH * 1.5, HEIGHT * 1.5);
  const bbox = [coordinate(west, 180), coordinate(south, 85), coordinate(east, 180), coordinate(north, 85)].join(",");
  return `/basemap/outline.svg?bbox=${bbox}&size=${WIDTH * 2}x${HEIGHT * 2}`;
}

/**
 * A drawing of the line and markers on the base map's outlines, without tiles or JavaScript: what
 * the server renders, what readers without JavaScript or WebGL keep, and what shows while MapLibre
 * loads. North is up; with nothing to show, it is a map of France.
 */
export function StaticMap({
  label,
  line,
  breaks,
  markers = [],
}: {
  label: string;
  line?: readonly (readonly [number, number])[];
  /** Indexes in `line` where a new segment starts: nothing is drawn across the gap. */
  breaks?: readonly number[];
  markers?: readonly RaceMapMarker[];
}) {
  const gridId = `grid-${useId().replace(/[^a-zA-Z0-9_-]/g, "")}`;
  const positions: [number, number][] = [
    ...(line ?? []).map(([lng, lat]) => [lng, lat] as [number, number]),
    ...markers.map((m) => [m.lng, m.lat] as [number, number]),
  ];
  const view = boxView(positions, WIDTH, HEIGHT, 28, { fallback: FRANCE_BOUNDS, span: PLACE_SPAN });
  const projected = view ? positions.map(view.project) : [];
  const linePoints = projected.slice(0, line?.length ?? 0);
  const markerPoints = projected.slice(line?.length ?? 0);
  // One subpath per segment: a gap stays a gap.
  const lineD = splitAtBreaks(linePoints, breaks)
    .filter((segment) => segment.length >= 2)
    .map((segment) => `M${segment.map((p) => `${p.x},${p.y}`).join("L")}`)
    .join("");
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      preserveAspectRatio="xMidYMid meet"
      role="img"
      aria-label={label}
      className="h-full w-full"
    >
      <defs>
        <pattern id={gridId} width="24" height="24" patternUnits="userSpaceOnUse">
          <path d="M24 0H0V24" fill="none" stroke="#c9d6cf" strokeWidth="0.6" />
        </pattern>
      </defs>
      <rect x="-2000" y="-2000" width="4480" height="4300" fill={`url(#${gridId})`} />
      {view && (
        <image
          href={outlineUrl(view)}
          x={-WIDTH / 2}
          y={-HEIGHT / 2}
          width={WIDTH * 2}
          height={HEIGHT * 2}
          preserveAspectRatio="none"
        />
      )}
      {lineD && (
        <g fill="none" strokeLinecap="round" strokeLinejoin="round">
          <path d={lineD} stroke="#fff" strokeWidth="7" />
          <path d={lineD} stroke={MARKER_COLORS.place} strokeWidth="3.5" />
        </g>
      )}
      {markers.map((m, i) => {
        const p = markerPoints[i];
        if (!p) return null;
        if (m.kind === "start" || m.kind === "finish")
          return (
            <circle key={m.id} cx={p.x} cy={p.y} r="7" fill={MARKER_COLORS[m.kind]} stroke="#fff" strokeWidth="3" />
          );
        return (
          <g key={m.id} transform={`translate(${p.x} ${p.y})`}>
            <path
              d="M0 0C-2-7-11-12-11-20a11 11 0 0 1 22 0c0 8-9 13-11 20z"
              fill={MARKER_COLORS.place}
              stroke="#fff"
              strokeWidth="2"
            />
            <circle cx="0" cy="-20" r="4" fill="#fff" />
          </g>
        );
      })}
    </svg>
  );
}
