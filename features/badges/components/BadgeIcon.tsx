import type { MemberBadge } from "../badges.contract.ts";

type Family = MemberBadge["family"];

/** Each family's colours: a ring, a face and the figure's ink (contrast ≥ 4.5:1 on the face). */
const COLOURS: Record<Family, { ring: string; face: string; ink: string }> = {
  finisher: { ring: "#b45309", face: "#fef3c7", ink: "#78350f" },
  sport: { ring: "#0f766e", face: "#ccfbf1", ink: "#134e4a" },
  distance: { ring: "#1d4ed8", face: "#dbeafe", ink: "#1e3a8a" },
  total: { ring: "#7c3aed", face: "#ede9fe", ink: "#4c1d95" },
  races: { ring: "#be123c", face: "#ffe4e6", ink: "#881337" },
  marathon: { ring: "#a16207", face: "#fef9c3", ink: "#713f12" },
  elevation: { ring: "#15803d", face: "#dcfce7", ink: "#14532d" },
};

/** The shape behind the figure: a medal for finishers, a shield, a hexagon, a star… */
function Shape({ family, fill, stroke }: { family: Family; fill: string; stroke: string }) {
  const common = { fill, stroke, strokeWidth: 4, strokeLinejoin: "round" as const };
  switch (family) {
    case "distance":
      return <polygon points="32,4 56,18 56,46 32,60 8,46 8,18" {...common} />;
    case "total":
      return <path d="M32 4 L56 12 V32 C56 46 45 55 32 60 C19 55 8 46 8 32 V12 Z" {...common} />;
    case "races":
      return (
        <polygon points="32,4 39,21 57,22 43,34 48,52 32,42 16,52 21,34 7,22 25,21" {...common} strokeWidth={3.5} />
      );
    case "elevation":
      return (
        <>
          <circle cx="32" cy="32" r="27" {...common} />
          <path d="M12 46 L26 24 L33 34 L40 22 L53 46 Z" fill={stroke} opacity={0.25} />
        </>
      );
    case "marathon":
      return (
        <>
          <rect x="27" y="2" width="10" height="6" rx="2" fill={stroke} />
          <circle cx="32" cy="35" r="25" {...common} />
        </>
      );
    case "finisher":
      return (
        <>
          <path d="M20 2 L28 22 M44 2 L36 22" stroke={stroke} strokeWidth={6} strokeLinecap="round" />
          <circle cx="32" cy="38" r="22" {...common} />
        </>
      );
    default:
      return <circle cx="32" cy="32" r="27" {...common} />;
  }
}

/** A badge drawn in SVG (no image file): its family's shape and its figure ("42", "100", "3h"). */
export function BadgeIcon({ family, figure, size = 56 }: { family: Family; figure: string; size?: number }) {
  const c = COLOURS[family];
  const y = family === "finisher" ? 38 : family === "marathon" ? 35 : 32;
  const text = figure || (family === "finisher" ? "✓" : "");
  const fontSize = text.length >= 4 ? 13 : text.length === 3 ? 16 : 20;
  return (
    <svg viewBox="0 0 64 64" width={size} height={size} aria-hidden="true" focusable="false">
      <Shape family={family} fill={c.face} stroke={c.ring} />
      <text
        x="32"
        y={y}
        textAnchor="middle"
        dominantBaseline="central"
        fontFamily="system-ui, sans-serif"
        fontWeight={800}
        fontSize={fontSize}
        fill={c.ink}
      >
        {text}
      </text>
    </svg>
  );
}
