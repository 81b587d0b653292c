import type { Dashboard } from "../admin.contract.ts";

type TrafficPoint = Dashboard["traffic"]["hours"][number];

/**
 * Requests per period as bars (server errors stacked in a darker shade, and counted in the text
 * alternative), drawn in SVG on the server: no script, readable at 360 px. The figure's caption
 * and its hidden table say the same as the picture.
 */
export function TrafficChart({
  points,
  label,
  maxLabel,
  tickLabel,
  tableHeaders,
}: {
  points: readonly TrafficPoint[];
  /** The figure's name (e.g. "Requests, last 24 hours"). */
  label: string;
  /** The top of the scale, in words ("max. 1 234"). */
  maxLabel: (max: number) => string;
  /** A period's short label on the axis and in the table. */
  tickLabel: (at: string) => string;
  tableHeaders: { period: string; requests: string; errors: string };
}) {
  const width = 720;
  const height = 160;
  const max = Math.max(1, ...points.map((p) => p.requests));
  const step = width / Math.max(1, points.length);
  const bar = Math.max(1, step - 2);
  const y = (n: number) => height - (n / max) * (height - 8);
  return (
    <figure className="min-w-0">
      <figcaption className="mb-1 flex items-baseline justify-between gap-2 font-medium text-ink-900 text-sm">
        <span>{label}</span>
        <span className="whitespace-nowrap font-normal text-ink-500 text-xs tabular-nums">{maxLabel(max)}</span>
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} className="h-auto w-full" role="img" aria-label={label}>
        <line x1="0" x2={width} y1={height} y2={height} className="stroke-slate-300" strokeWidth="1" />
        {points.map((p, i) => {
          const x = i * step + 1;
          const errors = p.serverErrors;
          return (
            <g key={p.at}>
              {p.requests > 0 ? (
                <rect x={x} width={bar} y={y(p.requests)} height={height - y(p.requests)} className="fill-brand-600" />
              ) : null}
              {errors > 0 ? (
                <rect x={x} width={bar} y={y(errors)} height={height - y(errors)} className="fill-red-700" />
              ) : null}
            </g>
          );
        })}
      </svg>
      <Axis points={points} tickLabel={tickLabel} />
      <table className="sr-only">
        <thead>
          <tr>
            <th scope="col">{tableHeaders.period}</th>
            <th scope="col">{tableHeaders.requests}</th>
            <th scope="col">{tableHeaders.errors}</th>
          </tr>
        </thead>
        <tbody>
          {points.map((p) => (
            <tr key={p.at}>
              <th scope="row">{tickLabel(p.at)}</th>
              <td>{p.requests}</td>
              <td>{p.serverErrors}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** CPU and memory averages per period as two lines (0–100 %), gaps where no sample was taken. */
export function LoadChart({
  points,
  label,
  tickLabel,
  legend,
}: {
  points: readonly TrafficPoint[];
  label: string;
  tickLabel: (at: string) => string;
  legend: { cpu: string; memory: string };
}) {
  const width = 720;
  const height = 120;
  const step = width / Math.max(1, points.length);
  const path = (key: "cpuPercent" | "memoryPercent") => {
    let d = "";
    let open = false;
    points.forEach((p, i) => {
      const v = p[key];
      if (v === null) {
        open = false;
        return;
      }
      const x = i * step + step / 2;
      const y = height - (v / 100) * (height - 4);
      d += `${open ? "L" : "M"}${x.toFixed(1)},${y.toFixed(1)} `;
      open = true;
    });
    return d.trim();
  };
  return (
    <figure className="min-w-0">
      <figcaption className="mb-1 flex flex-wrap items-center gap-x-4 font-medium text-ink-900 text-sm">
        <span>{label}</span>
        <span className="inline-flex items-center gap-1 font-normal text-ink-700 text-xs">
          <svg width="18" height="6" aria-hidden="true">
            <line x1="0" x2="18" y1="3" y2="3" className="stroke-brand-700" strokeWidth="2" />
          </svg>
          {legend.cpu}
        </span>
        <span className="inline-flex items-center gap-1 font-normal text-ink-700 text-xs">
          <svg width="18" height="6" aria-hidden="true">
            <line x1="0" x2="18" y1="3" y2="3" className="stroke-amber-600" strokeWidth="2" strokeDasharray="4 3" />
          </svg>
          {legend.memory}
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} className="h-auto w-full" role="img" aria-label={label}>
        <line x1="0" x2={width} y1={height} y2={height} className="stroke-slate-300" strokeWidth="1" />
        <line x1="0" x2={width} y1={height / 2} y2={height / 2} className="stroke-slate-100" strokeWidth="1" />
        <path d={path("cpuPercent")} fill="none" className="stroke-brand-700" strokeWidth="2" />
        {points.flatMap((p, i) =>
          (["cpuPercent", "memoryPercent"] as const).map((key) => {
            const value = p[key];
            return value === null ? null : (
              <circle
                key={`${p.at}-${key}`}
                cx={i * step + step / 2}
                cy={height - (value / 100) * (height - 4)}
                r="3"
                className={key === "cpuPercent" ? "fill-brand-700" : "fill-amber-600"}
              />
            );
          }),
        )}
        <path
          d={path("memoryPercent")}
          fill="none"
          className="stroke-amber-600"
          strokeWidth="2"
          strokeDasharray="6 4"
        />
      </svg>
      <Axis points={points} tickLabel={tickLabel} />
    </figure>
  );
}

/** Five labels under a chart, first to last period, in HTML so that they stay readable at 360 px. */
function Axis({ points, tickLabel }: { points: readonly TrafficPoint[]; tickLabel: (at: string) => string }) {
  if (points.length === 0) return null;
  const last = points.length - 1;
  const picks = [...new Set([0, Math.round(last / 4), Math.round(last / 2), Math.round((3 * last) / 4), last])];
  return (
    <div aria-hidden="true" className="mt-1 flex justify-between text-ink-500 text-xs tabular-nums">
      {picks.map((i) => (
        <span key={i}>{tickLabel(points[i]?.at ?? "")}</span>
      ))}
    </div>
  );
}
