import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Locale } from "../../../shared/constants.ts";
import { formatDistance, formatNumber } from "../../../shared/format.ts";
import { splitAtBreaks } from "../../maps/geometry.ts";

const W = 1000;
const H = 220;

/** 1, 2, 2.5 or 5 times a power of ten, at least `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * power;
}

export type ChartScale = { yMin: number; yMax: number; yTicks: number[]; xMax: number; xTicks: number[] };

/** Axis bounds and ticks: elevation in metres on round steps, distance in kilometres. */
export function chartScale(profile: readonly (readonly [number, number])[], distance: number): ChartScale {
  const elevations = profile.map((p) => p[1]);
  const min = Math.min(...elevations);
  const max = Math.max(...elevations);
  // At least 100 m of height, so that a flat course looks flat.
  const yStep = niceStep(Math.max(max - min, 100) / 4);
  const yMin = Math.floor(min / yStep) * yStep;
  let yMax = Math.ceil(max / yStep) * yStep;
  while (yMax - yMin < 100 || yMax === yMin) yMax += yStep;
  const yTicks: number[] = [];
  for (let v = yMin; v <= yMax + 1e-9; v += yStep) yTicks.push(Math.round(v * 100) / 100);
  const km = Math.max(distance, profile.at(-1)?.[0] ?? 0) / 1000;
  const xStep = niceStep(km / 5);
  const xTicks: number[] = [];
  for (let v = 0; v <= km + 1e-9; v += xStep) xTicks.push(Math.round(v * 1000) / 1000);
  return { yMin, yMax, yTicks, xMax: km, xTicks };
}

export type ElevationChartProps = {
  /** [distance m, elevation m] samples. */
  profile: readonly (readonly [number, number])[];
  /**
   * Indexes in `profile` where a new segment of the track starts: the chart draws no line across
   * the gap (which the distance axis leaves out) and marks it.
   */
  breaks?: readonly number[];
  name: string;
  distance: number;
  /** Null when the track has no elevation: then there is no chart at all. */
  elevationGain: number | null;
  elevationLoss: number | null;
  minElevation: number | null;
  maxElevation: number | null;
  locale: Locale;
  headingLevel?: "h4" | "h5";
};

/**
 * The course's elevation as an area chart: an inline SVG for the shape, HTML labels for the axes
 * (readable at any width), a text summary for everyone, and a reading of the point under the pointer.
 */
export function ElevationChart(props: ElevationChartProps) {
  const { profile, locale } = props;
  const { t } = useTranslation("event");
  const id = useId();
  const [hover, setHover] = useState<number | null>(null);
  const { elevationGain, elevationLoss } = props;
  if (profile.length < 2 || elevationGain === null || elevationLoss === null) return null;
  const scale = chartScale(profile, props.distance);
  const xOf = (d: number) => (d / 1000 / scale.xMax) * W;
  const yOf = (e: number) => H - ((e - scale.yMin) / (scale.yMax - scale.yMin)) * H;
  // One area and one line per segment: nothing drawn across a gap between two.
  const parts = splitAtBreaks(profile, props.breaks).filter((part) => part.length >= 2);
  const lineOf = (part: readonly (readonly [number, number])[]) =>
    part.map(([d, e]) => `${xOf(d).toFixed(1)},${yOf(e).toFixed(1)}`).join(" L");
  const line = parts.map((part) => `M${lineOf(part)}`).join(" ");
  const area = parts
    .map((part) => `M${xOf(part[0][0]).toFixed(1)},${H} L${lineOf(part)} L${xOf(part.at(-1)![0]).toFixed(1)},${H} Z`)
    .join(" ");
  const gaps = parts.slice(1).map((part) => xOf(part[0][0]));
  const metres = (m: number) => `${formatNumber(Math.round(m), locale, { maximumFractionDigits: 0 })}\u00a0m`;
  const min = props.minElevation ?? Math.min(...profile.map((p) => p[1]));
  const max = props.maxElevation ?? Math.max(...profile.map((p) => p[1]));
  const segmentsNote = parts.length > 1 ? ` ${t("profile.segments", { count: parts.length })}` : "";
  // Distance and D+ are the page's own figures, shown once above the chart (issue 26 item 3): the
  // summary says what only the profile tells.
  const summary =
    t("profile.summary", {
      loss: metres(elevationLoss),
      min: metres(min),
      max: metres(max),
    }) + segmentsNote;
  const pct = (value: number, total: number) => `${((value / total) * 100).toFixed(2)}%`;
  const point = hover === null ? null : profile[hover];
  const HeadingTag = props.headingLevel ?? "h4";

  return (
    <figure className="m-0" aria-labelledby={`${id}-title`}>
      <figcaption>
        <HeadingTag id={`${id}-title`} className="font-semibold text-ink-900 text-sm">
          {t("profile.title")}
        </HeadingTag>
        <p id={`${id}-summary`} className="mt-1 text-ink-700 text-sm">
          {summary}
        </p>
      </figcaption>
      <div className="mt-3 grid grid-cols-[2.75rem_1fr] gap-x-2">
        {/* Labels are SVG text placed in percent: no inline styles (the CSP forbids them) and no stretching. */}
        <svg className="h-36 w-full overflow-visible text-ink-500 sm:h-44" aria-hidden="true">
          {scale.yTicks.map((v) => (
            <text
              key={v}
              x="100%"
              y={pct(scale.yMax - v, scale.yMax - scale.yMin)}
              textAnchor="end"
              dominantBaseline="middle"
              className="fill-current text-[11px] tabular-nums"
            >
              {formatNumber(v, locale, { maximumFractionDigits: 0 })}
            </text>
          ))}
        </svg>
        <div className="relative h-36 sm:h-44">
          <svg
            viewBox={`0 0 ${W} ${H}`}
            preserveAspectRatio="none"
            role="img"
            aria-label={t("profile.label", { name: props.name })}
            aria-describedby={`${id}-summary`}
            className="absolute inset-0 h-full w-full overflow-visible"
          >
            <defs>
              <linearGradient id={`${id}-fill`} x1="0" y1="0" x2="0" y2="1">
                <stop offset="0%" stopColor="#f05a1a" stopOpacity="0.45" />
                <stop offset="100%" stopColor="#f05a1a" stopOpacity="0.06" />
              </linearGradient>
            </defs>
            {scale.yTicks.map((v) => (
              <line
                key={v}
                x1="0"
                x2={W}
                y1={yOf(v)}
                y2={yOf(v)}
                stroke="#cbd5e1"
                strokeWidth="1"
                vectorEffect="non-scaling-stroke"
                strokeDasharray={v === scale.yMin ? undefined : "3 4"}
              />
            ))}
            <path d={area} fill={`url(#${id}-fill)`} />
            {gaps.map((x) => (
              <line
                key={x}
                x1={x}
                x2={x}
                y1="0"
                y2={H}
                stroke="#475569"
                strokeWidth="1.5"
                vectorEffect="non-scaling-stroke"
                strokeDasharray="2 3"
                data-gap=""
              />
            ))}
            <path
              d={line}
              fill="none"
              stroke="#d9480f"
              strokeWidth="2"
              strokeLinejoin="round"
              vectorEffect="non-scaling-stroke"
            />
          </svg>
          {point && (
            <div aria-hidden="true">
              <div
                className="pointer-events-none absolute inset-y-0 w-px bg-ink-900/60"
                style={{ left: pct(point[0] / 1000, scale.xMax) }}
              />
              <div
                className="-translate-x-1/2 -translate-y-1/2 pointer-events-none absolute h-3 w-3 rounded-full border-2 border-white bg-brand-600 shadow"
                style={{
                  left: pct(point[0] / 1000, scale.xMax),
                  top: pct(scale.yMax - point[1], scale.yMax - scale.yMin),
                }}
              />
              <div
                className="pointer-events-none absolute top-1 whitespace-nowrap rounded-md bg-ink-900 px-2 py-1 font-medium text-white text-xs shadow"
                style={
                  point[0] / 1000 / scale.xMax > 0.6
                    ? { right: pct(scale.xMax - point[0] / 1000, scale.xMax), marginRight: 8 }
                    : { left: pct(point[0] / 1000, scale.xMax), marginLeft: 8 }
                }
              >
                {t("profile.point", {
                  distance: formatDistance(point[0], locale, { maximumFractionDigits: 1 }),
                  elevation: metres(point[1]),
                })}
              </div>
            </div>
          )}
          <div
            className="absolute inset-0 touch-pan-y"
            aria-hidden="true"
            onPointerMove={(event) => {
              const box = event.currentTarget.getBoundingClientRect();
              const f = Math.min(1, Math.max(0, (event.clientX - box.left) / box.width));
              const target = f * scale.xMax * 1000;
              let best = 0;
              for (let i = 1; i < profile.length; i++)
                if (Math.abs(profile[i][0] - target) < Math.abs(profile[best][0] - target)) best = i;
              setHover(best);
            }}
            onPointerLeave={() => setHover(null)}
          />
        </div>
        <svg className="col-start-2 h-5 w-full overflow-visible text-ink-500" aria-hidden="true">
          {scale.xTicks.map((v) => {
            const f = v / scale.xMax;
            return (
              <text
                key={v}
                x={pct(v, scale.xMax)}
                y="14"
                textAnchor={f < 0.03 ? "start" : f > 0.95 ? "end" : "middle"}
                className="fill-current text-[11px] tabular-nums"
              >
                {formatNumber(v, locale, { maximumFractionDigits: 1 })}
              </text>
            );
          })}
        </svg>
        <div className="col-start-2 mt-0.5 flex justify-between text-[11px] text-ink-500" aria-hidden="true">
          <span>{t("profile.yAxis")}</span>
          <span>{t("profile.xAxis")}</span>
        </div>
      </div>
    </figure>
  );
}
