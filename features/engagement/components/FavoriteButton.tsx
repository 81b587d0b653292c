import { Heart } from "lucide-react";
import { useTranslation } from "react-i18next";
import { cx } from "../../../shared/ui/cx.ts";
import { useMemberEvents } from "./member-events.tsx";

/**
 * The heart on cards, the event page and the map: saves the race without leaving the page; a
 * visitor goes to sign in and comes back with it saved. Its name says what a press will do and
 * `aria-pressed` what is true now, so the state is never told by colour alone.
 */
export function FavoriteButton({
  eventId,
  name,
  variant = "card",
  className,
}: {
  eventId: number;
  name: string;
  variant?: "card" | "page";
  className?: string;
}) {
  const { t } = useTranslation("engagement");
  const { favorites, toggleFavorite, pending } = useMemberEvents();
  const on = favorites?.has(eventId) ?? false;
  const busy = pending.has(eventId);
  const label = t(on ? "favorite.remove" : "favorite.add", { name });
  return (
    <button
      type="button"
      aria-pressed={on}
      aria-label={variant === "card" ? label : undefined}
      title={variant === "card" ? label : undefined}
      disabled={busy}
      onClick={() => void toggleFavorite(eventId, name)}
      data-testid="favorite-button"
      data-event-id={eventId}
      className={cx(
        "inline-flex items-center justify-center gap-2 font-semibold transition focus-visible:outline-2 focus-visible:outline-brand-700 focus-visible:outline-offset-2 disabled:opacity-60",
        variant === "card"
          ? cx(
              "size-10 rounded-full bg-white/95 shadow-sm hover:bg-white hover:text-brand-700",
              on ? "text-brand-700" : "text-ink-700",
            )
          : cx(
              "rounded-lg border px-3 py-2 text-sm",
              on
                ? "border-brand-500/40 bg-brand-50 text-brand-800 hover:bg-brand-100"
                : "border-slate-300 bg-white text-ink-900 hover:bg-slate-50",
            ),
        className,
      )}
    >
      <Heart className={cx("size-5", on ? "fill-current" : "fill-none")} aria-hidden="true" />
      {variant === "page" && <span>{t(on ? "favorite.saved" : "favorite.addShort")}</span>}
    </button>
  );
}
