import { Calendar } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { apiFetch } from "../../../shared/api-client.ts";
import { formatLongDate } from "../../../shared/dates.ts";
import { formatNumber } from "../../../shared/format.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { useLocale } from "../../../shared/i18n/use-locale.ts";
import { RaceMap, type RaceMapMarker } from "../../maps/components/RaceMap.tsx";
import type { MapMarker, SearchQuery, SearchResult } from "../search.contract.ts";
import { searchQueryString } from "../search-url.ts";
import { MapPlaceholder } from "./MapPlaceholder.tsx";
import { searchMapBounds } from "./map-view.ts";
import type { SearchSlots } from "./search-slots.ts";

type Props = { query: SearchQuery; place: SearchResult["place"]; styleUrl?: string; slots?: SearchSlots };

type Marker = RaceMapMarker & { race?: MapMarker };

type Loaded = { key: string; markers: MapMarker[]; truncated: boolean; total: number };

/**
 * The map view: every race matching the filters (not only this page's) as clustered markers from
 * GET /api/events/map, with a popup card per race. Loaded only when the map view is shown.
 */
export default function SearchMap({ query, place, styleUrl, slots }: Props) {
  const { t } = useTranslation("landing");
  const { t: ts } = useTranslation("sports");
  const locale = useLocale();
  // Paging and sorting do not change which races are on the map.
  const { page: _page, perPage: _perPage, sort: _sort, ...filters } = query;
  const key = searchQueryString(filters);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    setFailed(false);
    apiFetch(`/api/events/map${key ? `?${key}` : ""}`, { signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const body = (await response.json()) as { markers?: MapMarker[]; truncated?: boolean; total?: number };
        const markers = Array.isArray(body) ? (body as MapMarker[]) : (body.markers ?? []);
        setLoaded({ key, markers, truncated: Boolean(body.truncated), total: body.total ?? markers.length });
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true);
      });
    return () => controller.abort();
  }, [key]);

  const markers = useMemo<Marker[]>(() => {
    const list: Marker[] = (loaded?.markers ?? []).map((race) => ({
      id: race.id,
      lat: race.lat,
      lng: race.lng,
      label: race.name,
      kind: "event",
      href: pagePath("event", locale, { slug: race.slug }),
      race,
    }));
    if (place) list.push({ id: "place", lat: place.lat, lng: place.lng, label: place.name, kind: "place" });
    return list;
  }, [loaded, place, locale]);

  const bounds = useMemo(() => searchMapBounds(loaded?.markers ?? [], place), [loaded, place]);

  if (!loaded && !failed) return <MapPlaceholder />;
  return (
    <div data-testid="search-map">
      <RaceMap<Marker>
        label={place ? t("views.mapAround", { place: place.name }) : t("views.mapLabel")}
        markers={markers}
        cluster
        load="immediate"
        bounds={bounds}
        styleUrl={styleUrl || undefined}
        className="h-[420px] overflow-hidden rounded-xl border border-slate-200 sm:h-[520px]"
        renderPopup={(marker) =>
          marker.race ? (
            // Text and heart side by side, the heart centred on the text and clear of the popup's close button.
            <div className="flex min-w-52 max-w-72 items-center gap-3 p-1 pt-3 text-ink-900">
              <div className="min-w-0 flex-1">
                <p className="font-semibold text-brand-700 text-xs">{ts(marker.race.sport)}</p>
                <p className="font-bold text-sm leading-snug">
                  <Link to={marker.href ?? "#"} className="hover:underline">
                    {marker.race.name}
                  </Link>
                </p>
                <p className="mt-1 flex items-center gap-1 text-ink-700 text-xs">
                  <Calendar className="size-3.5" aria-hidden="true" />
                  <time dateTime={marker.race.startDate}>{formatLongDate(marker.race.startDate, locale)}</time>
                </p>
              </div>
              {slots?.favorite?.(marker.race, "shrink-0 border border-slate-200")}
            </div>
          ) : (
            <p className="p-1 font-semibold text-sm">{marker.label}</p>
          )
        }
      />
      {loaded?.truncated ? (
        <p className="mt-2 text-ink-700 text-sm">
          {t("views.mapTruncated", {
            count: loaded.markers.length,
            formatted: formatNumber(loaded.markers.length, locale),
          })}
        </p>
      ) : null}
    </div>
  );
}
