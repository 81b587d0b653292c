import type { MemberCard } from "../community.contract.ts";

/** Avatar colours: dark enough for white initials (WCAG AA at this size). */
const COLOURS = ["bg-brand-700", "bg-emerald-700", "bg-sky-700", "bg-violet-700", "bg-rose-700", "bg-amber-700"];

function colourOf(slug: string): string {
  let hash = 0;
  for (const char of slug) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return COLOURS[hash % COLOURS.length];
}

/** A member's photo, or their initials on a colour of their own. Decorative: the name is beside it. */
export function MemberAvatar({ member, size = 40 }: { member: MemberCard; size?: number }) {
  const style = { width: size, height: size };
  if (member.photoUrl) {
    return (
      <img
        src={member.photoUrl}
        alt=""
        width={size}
        height={size}
        loading="lazy"
        className="shrink-0 rounded-full bg-slate-100 object-cover"
        style={style}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={`flex shrink-0 items-center justify-center rounded-full font-bold text-white ${colourOf(member.slug)}`}
      style={{ ...style, fontSize: Math.round(size * 0.38) }}
    >
      {member.initials}
    </span>
  );
}
