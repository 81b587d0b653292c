/**
 * Simple geometric marks for the social networks (lucide has no brand icons). Decorative: links
 * carry their network's name as text.
 */
type IconProps = { className?: string };

const common = {
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round" as const,
  strokeLinejoin: "round" as const,
  "aria-hidden": true,
};

export function FacebookMark({ className }: IconProps) {
  return (
    <svg {...common} className={className}>
      <path d="M15 3h-2.5A3.5 3.5 0 0 0 9 6.5V10H6.5v3.5H9V21h3.5v-7.5H15l.5-3.5h-3V7a1 1 0 0 1 1-1H15z" />
    </svg>
  );
}

export function InstagramMark({ className }: IconProps) {
  return (
    <svg {...common} className={className}>
      <rect x="3" y="3" width="18" height="18" rx="5" />
      <circle cx="12" cy="12" r="4" />
      <circle cx="17.5" cy="6.5" r="0.6" fill="currentColor" />
    </svg>
  );
}

export function XMark({ className }: IconProps) {
  return (
    <svg {...common} className={className}>
      <path d="M4 4l16 16M20 4 4 20" />
    </svg>
  );
}

export function YoutubeMark({ className }: IconProps) {
  return (
    <svg {...common} className={className}>
      <rect x="2.5" y="5.5" width="19" height="13" rx="4" />
      <path d="m10 9 5 3-5 3z" fill="currentColor" />
    </svg>
  );
}

export function VimeoMark({ className }: IconProps) {
  return (
    <svg {...common} className={className}>
      <path d="M3 8.5 5 10c1-1 2-1.5 2.5-.5L10 17c.7 1.5 1.6 1.7 2.6.5C15 14.6 19 9 20 7c.8-1.7-.5-3.5-2.8-2.7-1.6.5-2.8 1.8-3.4 3.7 1.6-.8 2.6 0 2 1.4L13 14" />
    </svg>
  );
}

export function WhatsappMark({ className }: IconProps) {
  return (
    <svg {...common} className={className}>
      <path d="M4 20l1.3-3.9A8 8 0 1 1 8 19z" />
      <path d="M9 9.5c0 3 2.5 5.5 5.5 5.5l1-1.5-2-1-1 1c-1 0-2-1-2-2l1-1-1-2z" />
    </svg>
  );
}
