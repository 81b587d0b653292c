import { EVENT_CARD_CROPS } from "../../../shared/card-crops.ts";
import type { SportKey } from "../../../shared/constants.ts";
import { cx } from "../../../shared/ui/cx.ts";
import { cardPicture } from "../../illustrations/event-images.ts";
import { sportArtUrl } from "../../illustrations/sport-art-urls.ts";

/**
 * An event's picture in a fixed 16:10 frame (`event-picture` in app/app.css; nothing moves when
 * it arrives): its cover in the
 * card crops, with `srcset`/`sizes` so that each screen fetches the size it shows; else the
 * sport's landscape. Decorative: the card names the race beside it, so the alt text is empty.
 */
export function EventPicture({
  event,
  sizes,
  eager = false,
  className = "w-full",
}: {
  event: { id: number; sport: SportKey; coverImage: string | null };
  /**
   * The `sizes` attribute: the picture's width in CSS pixels at each screen width. Without it, the
   * small crop alone (thumbnails of at most 160 CSS px).
   */
  sizes?: string;
  /** Above the fold: fetched at once; otherwise when it comes near the screen. */
  eager?: boolean;
  /** Its width (and corners); the full width of its container by default. */
  className?: string;
}) {
  const picture = cardPicture(event.coverImage, event.id);
  const { width, height } = EVENT_CARD_CROPS.card;
  return (
    <img
      src={picture?.src ?? sportArtUrl(event.sport)}
      srcSet={sizes ? picture?.srcSet : undefined}
      sizes={sizes && picture?.srcSet ? sizes : undefined}
      width={width}
      height={height}
      alt=""
      loading={eager ? undefined : "lazy"}
      className={cx("event-picture", className)}
    />
  );
}
