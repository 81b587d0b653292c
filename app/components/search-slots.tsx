import { AlertMeButton } from "../../features/alerts/components/AlertMeButton.tsx";
import { FavoriteButton } from "../../features/engagement/components/FavoriteButton.tsx";
import type { SearchSlots } from "../../features/search/components/search-slots.ts";
import type { Locale } from "../../shared/constants.ts";

/** What the search's results show from other features: the member's heart on each race, "alert me". */
export function searchSlots(locale: Locale): SearchSlots {
  return {
    favorite: (race, className) => <FavoriteButton eventId={race.id} name={race.name} className={className} />,
    alert: (query, label) => <AlertMeButton query={query} label={label} locale={locale} />,
  };
}
