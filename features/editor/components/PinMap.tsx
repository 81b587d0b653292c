import type * as MaplibreTypes from "maplibre-gl";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRouteLoaderData } from "react-router";
import { mapStyleUrl } from "../../maps/components/map-style.ts";
import { loadMaplibre } from "../../maps/components/RaceMap.tsx";

type Props = {
  lat: number | null;
  lng: number | null;
  /** The pin was dropped (drag, click on the map, arrow keys) at these coordinates. */
  onMove: (lat: number, lng: number) => void;
  label: string;
};

const FRANCE: [number, number] = [2.35, 46.6];
/** Pixels the arrow keys move the pin by (Shift: ten times more). */
const KEY_STEP = 8;

function webglAvailable(): boolean {
  try {
    const canvas = document.createElement("canvas");
    return Boolean(canvas.getContext("webgl2") ?? canvas.getContext("webgl"));
  } catch {
    return false;
  }
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * A small MapLibre map with one draggable pin for the event's place. A click on the map drops
 * the pin there; the pin also moves with the arrow keys once focused. The map is the configured
 * provider's, else Dossard's own offline base map; without WebGL the coordinates fields beside it
 * do the job.
 */
export function PinMap({ lat, lng, onMove, label }: Props) {
  const { t, i18n } = useTranslation("editor");
  const root = useRouteLoaderData("root") as { mapStyleUrl?: string } | undefined;
  const styleUrl = root?.mapStyleUrl ?? "";
  const host = useRef<HTMLDivElement>(null);
  const mapRef = useRef<{ map: MaplibreTypes.Map; marker: MaplibreTypes.Marker } | null>(null);
  const [status, setStatus] = useState<"loading" | "ready" | "unavailable">("loading");
  const helpId = useId();
  const latest = useRef({ lat, lng, onMove });
  latest.current = { lat, lng, onMove };

  // biome-ignore lint/correctness/useExhaustiveDependencies: created once per style; position updates come from the effect below
  useEffect(() => {
    if (!host.current || !webglAvailable()) {
      setStatus("unavailable");
      return;
    }
    let cancelled = false;
    let created: MaplibreTypes.Map | null = null;
    const container = host.current;
    loadMaplibre()
      .then((lib) => {
        if (cancelled) return;
        const { lat: startLat, lng: startLng } = latest.current;
        const placed = startLat !== null && startLng !== null;
        const map = new lib.Map({
          container,
          style: mapStyleUrl(styleUrl, i18n.language),
          center: placed ? [startLng, startLat] : FRANCE,
          zoom: placed ? 12 : 4.6,
          attributionControl: { compact: false },
          cooperativeGestures: true,
          fadeDuration: 0,
          locale: {
            "Map.Title": label,
            "NavigationControl.ZoomIn": t("place.zoomIn"),
            "NavigationControl.ZoomOut": t("place.zoomOut"),
            "CooperativeGesturesHandler.WindowsHelpText": t("place.gestures.windows"),
            "CooperativeGesturesHandler.MacHelpText": t("place.gestures.mac"),
            "CooperativeGesturesHandler.MobileHelpText": t("place.gestures.mobile"),
          },
        });
        created = map;
        map.addControl(new lib.NavigationControl({ showCompass: false }), "top-right");
        map.on("error", (event) => console.warn("[PinMap]", event.error?.message ?? event));

        const pin = document.createElement("button");
        pin.type = "button";
        pin.setAttribute("aria-label", t("place.pin"));
        pin.setAttribute("aria-describedby", helpId);
        pin.className =
          "block h-9 w-7 cursor-grab focus-visible:outline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700";
        pin.innerHTML =
          '<svg viewBox="0 0 28 36" width="28" height="36" aria-hidden="true"><path d="M14 35s12-12.6 12-21A12 12 0 0 0 2 14c0 8.4 12 21 12 21z" fill="#b33a0c" stroke="#fff" stroke-width="2"/><circle cx="14" cy="14" r="4.5" fill="#fff"/></svg>';
        const marker = new lib.Marker({ element: pin, draggable: true, anchor: "bottom" }).setLngLat(
          placed ? [startLng, startLat] : FRANCE,
        );
        if (placed) marker.addTo(map);
        mapRef.current = { map, marker };

        const drop = (lngLat: { lng: number; lat: number }) =>
          latest.current.onMove(round(lngLat.lat), round(lngLat.lng));
        marker.on("dragend", () => drop(marker.getLngLat()));
        map.on("click", (event) => {
          marker.setLngLat(event.lngLat).addTo(map);
          drop(event.lngLat);
        });
        let pending: ReturnType<typeof setTimeout> | undefined;
        pin.addEventListener("keydown", (event) => {
          const moves: Record<string, [number, number]> = {
            ArrowUp: [0, -1],
            ArrowDown: [0, 1],
            ArrowLeft: [-1, 0],
            ArrowRight: [1, 0],
          };
          const move = moves[event.key];
          if (!move) return;
          event.preventDefault();
          event.stopPropagation();
          const step = event.shiftKey ? KEY_STEP * 10 : KEY_STEP;
          const point = map.project(marker.getLngLat());
          const next = map.unproject([point.x + move[0] * step, point.y + move[1] * step]);
          marker.setLngLat(next);
          clearTimeout(pending);
          pending = setTimeout(() => drop(marker.getLngLat()), 400);
        });
        map.on("load", () => !cancelled && setStatus("ready"));
      })
      .catch(() => !cancelled && setStatus("unavailable"));
    return () => {
      cancelled = true;
      created?.remove();
      mapRef.current = null;
    };
  }, [styleUrl]);

  // Coordinates from outside (a commune chosen, typed coordinates): the pin and the view follow.
  useEffect(() => {
    const current = mapRef.current;
    if (!current || lat === null || lng === null) return;
    const here = current.marker.getLngLat();
    if (round(here.lat) === round(lat) && round(here.lng) === round(lng) && current.marker.getElement().isConnected) {
      return;
    }
    current.marker.setLngLat([lng, lat]).addTo(current.map);
    current.map.jumpTo({ center: [lng, lat], zoom: Math.max(current.map.getZoom(), 11) });
  }, [lat, lng]);

  return (
    <div>
      <div
        className="relative aspect-[4/3] w-full overflow-hidden rounded-lg border border-slate-300 bg-[#cfdfe6] sm:aspect-[16/9]"
        data-map-status={status}
      >
        {/* MapLibre makes its container position: relative; the wrapper keeps it filling the frame. */}
        <div className="absolute inset-0">
          <div ref={host} className="h-full w-full" />
        </div>
        {status !== "ready" ? (
          <p className="absolute inset-0 flex items-center justify-center p-4 text-center text-ink-700 text-sm">
            {status === "loading" ? t("place.mapLoading") : t("place.mapUnavailable")}
          </p>
        ) : null}
      </div>
      <p id={helpId} className="mt-1 text-ink-500 text-sm">
        {t("place.mapHelp")}
      </p>
    </div>
  );
}
