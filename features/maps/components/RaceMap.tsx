/**
 * A MapLibre GL map of races: markers (optionally clustered, with a popup per race) and/or a course
 * line, fitted to its content.
 *
 * - The server and readers without JavaScript or WebGL get a drawing (StaticMap, or `fallback`).
 * - In the browser, maplibre-gl (its code, worker and CSS) is imported only once the map comes near
 *   the viewport (or at once with `load="immediate"`), so pages without a visible map never load it.
 * - Tiles come from the style URL of the configuration (MAP_STYLE_URL, handed over by the root
 *   loader as `mapStyleUrl`, a hosted provider with streets and terrain); without one, from
 *   Dossard's own offline base map (/basemap/style.json, decision 016). Its attribution is always
 *   shown in full.
 * - Popups render React content (`renderPopup`) through a portal, so they keep the page's context
 *   (translations, router links) and React escapes every text.
 */
import type { Feature, FeatureCollection, MultiLineString, Point } from "geojson";
import type * as MaplibreTypes from "maplibre-gl";
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "react-i18next";
import { useRouteLoaderData } from "react-router";
import { formatNumber } from "../../../shared/format.ts";
import { boundsOf, splitAtBreaks } from "../geometry.ts";
import { mapStyleUrl } from "./map-style.ts";
import type { RaceMapMarker } from "./markers.ts";
import { MARKER_COLORS, StaticMap } from "./StaticMap.tsx";

export type { RaceMapMarker } from "./markers.ts";

export type RaceMapProps<M extends RaceMapMarker = RaceMapMarker> = {
  /** Accessible name of the map ("Map of the course", "Races around Lyon"). */
  label: string;
  markers?: readonly M[];
  /** A course line as [lng, lat] positions. */
  line?: readonly (readonly [number, number])[];
  /** Indexes in `line` where a new segment starts: the gaps between segments are not drawn. */
  breaks?: readonly number[];
  /**
   * Group nearby races (markers of kind "event" or without kind) into counted clusters; a click on
   * a cluster zooms into it, a click on a race opens its popup. Other kinds stay separate markers.
   */
  cluster?: boolean;
  /** Content of the popup opened by a click on a marker; the default shows its label (and link). */
  renderPopup?: (marker: M) => ReactNode;
  /** Overrides the configured style URL; "" means the offline base map. */
  styleUrl?: string;
  /** Sizing and decoration of the frame, e.g. "aspect-[16/10] rounded-xl". */
  className?: string;
  /** What shows before and without MapLibre; a drawing of the line and markers by default. */
  fallback?: ReactNode;
  /** "visible" (default): load MapLibre when the map nears the viewport; "immediate": at once. */
  load?: "visible" | "immediate";
  /** The first view as [west, south, east, north], instead of fitting the content. */
  bounds?: [number, number, number, number];
  /** Zoom when the content is a single point. */
  zoom?: number;
  /** Largest zoom the fitting may reach. */
  maxZoom?: number;
  /** Scroll and one-finger drags pass to the page unless Ctrl / two fingers are used (default true). */
  cooperativeGestures?: boolean;
};

type Maplibre = typeof MaplibreTypes;

let loading: Promise<Maplibre> | null = null;
/** maplibre-gl, its worker (served as a build asset) and its CSS, loaded once. */
export function loadMaplibre(): Promise<Maplibre> {
  loading ??= Promise.all([
    import("maplibre-gl"),
    import("maplibre-gl/dist/maplibre-gl-worker.mjs?url"),
    import("maplibre-gl/dist/maplibre-gl.css"),
  ]).then(([lib, worker]) => {
    lib.setWorkerUrl(worker.default);
    return lib;
  });
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

function webglAvailable(): boolean {
  try {
    const canvas = document.createElement("canvas");
    return Boolean(canvas.getContext("webgl2") ?? canvas.getContext("webgl"));
  } catch {
    return false;
  }
}

function dotElement(kind: "start" | "finish", label: string): HTMLElement {
  const el = document.createElement("div");
  el.style.cssText = `width:16px;height:16px;border-radius:9999px;border:3px solid #fff;background:${MARKER_COLORS[kind]};box-shadow:0 0 0 1px rgba(19,34,56,.35)`;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label);
  el.title = label;
  return el;
}

const LINE_SOURCE = "race-map-line";
const POINT_SOURCE = "race-map-points";

/** The line as one MultiLineString, a LineString per segment: nothing drawn across a gap. */
function lineData(line: RaceMapProps["line"], breaks: RaceMapProps["breaks"]): Feature<MultiLineString> {
  return {
    type: "Feature",
    properties: {},
    geometry: {
      type: "MultiLineString",
      coordinates: splitAtBreaks(line ?? [], breaks)
        .filter((segment) => segment.length >= 2)
        .map((segment) => segment.map(([lng, lat]) => [lng, lat])),
    },
  };
}

/** Races are clustered; a place, a start or a finish stays a marker of its own. */
const clustered = (m: RaceMapMarker) => m.kind === undefined || m.kind === "event";

/** The clustered races, each carrying its index in `markers`. */
function pointData(markers: readonly RaceMapMarker[]): FeatureCollection<Point> {
  return {
    type: "FeatureCollection",
    features: markers.flatMap((m, index) =>
      clustered(m)
        ? [
            {
              type: "Feature" as const,
              properties: { index },
              geometry: { type: "Point" as const, coordinates: [m.lng, m.lat] },
            },
          ]
        : [],
    ),
  };
}

export function RaceMap<M extends RaceMapMarker = RaceMapMarker>(props: RaceMapProps<M>) {
  const {
    label,
    markers = [],
    line,
    breaks,
    cluster = false,
    renderPopup,
    className = "aspect-[16/10]",
    fallback,
    load = "visible",
    zoom = 12,
    maxZoom = 15,
    cooperativeGestures = true,
  } = props;
  const { t, i18n } = useTranslation("event");
  const root = useRouteLoaderData("root") as { mapStyleUrl?: string } | undefined;
  const styleUrl = props.styleUrl ?? root?.mapStyleUrl ?? "";
  const frame = useRef<HTMLDivElement>(null);
  const canvasHost = useRef<HTMLDivElement>(null);
  const mapRef = useRef<{ lib: Maplibre; map: MaplibreTypes.Map } | null>(null);
  const [wanted, setWanted] = useState(load === "immediate");
  const [ready, setReady] = useState(false);
  const [popup, setPopup] = useState<{ marker: M; el: HTMLElement; instance: MaplibreTypes.Popup } | null>(null);

  // The latest props, for handlers registered once.
  const latest = useRef({ markers, line, breaks, renderPopup });
  latest.current = { markers, line, breaks, renderPopup };

  const dataKey = useMemo(
    () => JSON.stringify([line ?? [], breaks ?? [], markers.map((m) => [m.id, m.lng, m.lat, m.kind ?? "event"])]),
    [line, breaks, markers],
  );
  const keyRef = useRef(dataKey);
  keyRef.current = dataKey;
  /** The data the map shows. */
  const appliedKey = useRef(dataKey);

  // Load when the frame comes near the viewport.
  useEffect(() => {
    if (wanted) return;
    const el = frame.current;
    if (!el || typeof IntersectionObserver === "undefined") {
      setWanted(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setWanted(true);
          observer.disconnect();
        }
      },
      { rootMargin: "200px" },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [wanted]);

  // Create the map once wanted; rebuild it when the style, the language or the mode changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the content comes from refs and the data effect below
  useEffect(() => {
    if (!wanted || !canvasHost.current || !webglAvailable()) return;
    let cancelled = false;
    let created: MaplibreTypes.Map | null = null;
    const host = canvasHost.current;
    loadMaplibre()
      .then((lib) => {
        if (cancelled) return;
        const { markers: current, line: currentLine } = latest.current;
        const positions = [...(currentLine ?? []), ...current.map((m) => [m.lng, m.lat] as const)];
        const bounds = props.bounds ?? boundsOf(positions);
        const single = bounds && bounds[0] === bounds[2] && bounds[1] === bounds[3];
        const map = new lib.Map({
          container: host,
          style: mapStyleUrl(styleUrl, i18n.language),
          ...(bounds && !single
            ? { bounds: bounds as [number, number, number, number], fitBoundsOptions: { padding: 36, maxZoom } }
            : { center: bounds ? [bounds[0], bounds[1]] : [2.35, 46.6], zoom: bounds ? zoom : 4.6 }),
          attributionControl: { compact: false },
          cooperativeGestures,
          fadeDuration: 0,
          locale: {
            "Map.Title": label,
            "Marker.Title": t("map.marker"),
            "NavigationControl.ZoomIn": t("map.zoomIn"),
            "NavigationControl.ZoomOut": t("map.zoomOut"),
            "NavigationControl.ResetBearing": t("map.resetBearing"),
            "Popup.Close": t("map.closePopup"),
            "AttributionControl.ToggleAttribution": t("map.attribution"),
            "CooperativeGesturesHandler.WindowsHelpText": t("map.gestures.windows"),
            "CooperativeGesturesHandler.MacHelpText": t("map.gestures.mac"),
            "CooperativeGesturesHandler.MobileHelpText": t("map.gestures.mobile"),
          },
        });
        created = map;
        mapRef.current = { lib, map };
        map.addControl(new lib.NavigationControl({ showCompass: false }), "top-right");
        // Top left: the bottom is the attribution's, in full even on a narrow map.
        map.addControl(new lib.ScaleControl({ unit: "metric" }), "top-left");
        map.on("error", (event) => {
          // Tile or style failures leave the markers and lines on the background: not worth a console error.
          console.warn("[RaceMap]", event.error?.message ?? event);
        });
        map.on("load", () => {
          if (cancelled) return;
          addContent(lib, map);
          setReady(true);
        });
      })
      .catch((error) => console.warn("[RaceMap] MapLibre could not start", error));
    return () => {
      cancelled = true;
      created?.remove();
      mapRef.current = null;
      setReady(false);
      setPopup(null);
    };
  }, [wanted, styleUrl, cluster, i18n.language]);

  // Markers (HTML for small sets, a clustered source otherwise) and the line.
  const htmlMarkers = useRef<MaplibreTypes.Marker[]>([]);
  const clusterLabels = useRef(new Map<number, MaplibreTypes.Marker>());

  function openPopup(lib: Maplibre, map: MaplibreTypes.Map, marker: M, at: [number, number]) {
    const el = document.createElement("div");
    const instance = new lib.Popup({ maxWidth: "300px", offset: 14, focusAfterOpen: true })
      .setLngLat(at)
      .setDOMContent(el)
      .addTo(map);
    instance.on("close", () => setPopup((current) => (current?.el === el ? null : current)));
    setPopup({ marker, el, instance });
  }

  function addContent(lib: Maplibre, map: MaplibreTypes.Map) {
    appliedKey.current = keyRef.current;
    map.addSource(LINE_SOURCE, { type: "geojson", data: lineData(latest.current.line, latest.current.breaks) });
    map.addLayer({
      id: "race-map-line-casing",
      type: "line",
      source: LINE_SOURCE,
      layout: { "line-join": "round", "line-cap": "round" },
      paint: { "line-color": "#ffffff", "line-width": 7 },
    });
    map.addLayer({
      id: "race-map-line",
      type: "line",
      source: LINE_SOURCE,
      layout: { "line-join": "round", "line-cap": "round" },
      paint: { "line-color": MARKER_COLORS.place, "line-width": 4 },
    });
    if (cluster) {
      map.addSource(POINT_SOURCE, {
        type: "geojson",
        data: pointData(latest.current.markers),
        cluster: true,
        clusterRadius: 46,
        clusterMaxZoom: 12,
      });
      map.addLayer({
        id: "race-map-clusters",
        type: "circle",
        source: POINT_SOURCE,
        filter: ["has", "point_count"],
        paint: {
          "circle-color": ["step", ["get", "point_count"], "#d9480f", 20, "#b33a0c", 100, "#132238"],
          "circle-radius": ["step", ["get", "point_count"], 16, 20, 21, 100, 27],
          "circle-stroke-color": "#ffffff",
          "circle-stroke-width": 2,
        },
      });
      map.addLayer({
        id: "race-map-points",
        type: "circle",
        source: POINT_SOURCE,
        filter: ["!", ["has", "point_count"]],
        paint: {
          "circle-color": MARKER_COLORS.event,
          "circle-radius": 7,
          "circle-stroke-color": "#ffffff",
          "circle-stroke-width": 2,
        },
      });
      map.on("click", "race-map-clusters", async (event) => {
        const feature = event.features?.[0];
        if (!feature) return;
        const source = map.getSource(POINT_SOURCE) as MaplibreTypes.GeoJSONSource;
        const next = await source.getClusterExpansionZoom(feature.properties.cluster_id as number);
        map.easeTo({ center: (feature.geometry as Point).coordinates as [number, number], zoom: next });
      });
      map.on("click", "race-map-points", (event) => {
        const feature = event.features?.[0];
        const marker = feature ? latest.current.markers[feature.properties.index as number] : undefined;
        if (marker) openPopup(lib, map, marker, [marker.lng, marker.lat]);
      });
      for (const layer of ["race-map-clusters", "race-map-points"]) {
        map.on("mouseenter", layer, () => {
          map.getCanvas().style.cursor = "pointer";
        });
        map.on("mouseleave", layer, () => {
          map.getCanvas().style.cursor = "";
        });
      }
      // Counts as HTML labels: a provider's style may have no glyphs for text layers.
      map.on("render", () => updateClusterLabels(lib, map));
    }
    placeHtmlMarkers(lib, map);
  }

  /** Every marker as an HTML marker, or in cluster mode those kept out of the clusters. */
  function placeHtmlMarkers(lib: Maplibre, map: MaplibreTypes.Map) {
    for (const m of htmlMarkers.current) m.remove();
    const own = cluster ? latest.current.markers.filter((m) => !clustered(m)) : latest.current.markers;
    htmlMarkers.current = own.map((m) => {
      const kind = m.kind ?? "event";
      const marker =
        kind === "start" || kind === "finish"
          ? new lib.Marker({ element: dotElement(kind, m.label) })
          : new lib.Marker({ color: MARKER_COLORS.place });
      marker.setLngLat([m.lng, m.lat]).addTo(map);
      const el = marker.getElement();
      el.setAttribute("aria-label", m.label);
      el.title = m.label;
      if (kind !== "start" && kind !== "finish") {
        el.style.cursor = "pointer";
        el.addEventListener("click", (event) => {
          event.stopPropagation();
          openPopup(lib, map, m as M, [m.lng, m.lat]);
        });
      }
      return marker;
    });
  }

  function updateClusterLabels(lib: Maplibre, map: MaplibreTypes.Map) {
    if (!map.getSource(POINT_SOURCE) || !map.isSourceLoaded(POINT_SOURCE)) return;
    const labels = clusterLabels.current;
    const seen = new Set<number>();
    for (const feature of map.querySourceFeatures(POINT_SOURCE)) {
      const p = feature.properties;
      if (!p?.cluster) continue;
      const id = p.cluster_id as number;
      if (seen.has(id)) continue;
      seen.add(id);
      if (!labels.has(id)) {
        const el = document.createElement("div");
        el.textContent = formatNumber(p.point_count as number, i18n.language);
        el.style.cssText = "color:#fff;font:700 12px/1 system-ui,sans-serif;pointer-events:none";
        el.setAttribute("aria-hidden", "true");
        const coordinates = (feature.geometry as Point).coordinates as [number, number];
        labels.set(id, new lib.Marker({ element: el }).setLngLat(coordinates).addTo(map));
      }
    }
    for (const [id, marker] of labels) {
      if (!seen.has(id)) {
        marker.remove();
        labels.delete(id);
      }
    }
  }

  // New markers or line after the map exists: update the sources and fit again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: dataKey stands for the markers and the line
  useEffect(() => {
    const current = mapRef.current;
    if (!ready || !current || appliedKey.current === dataKey) return;
    appliedKey.current = dataKey;
    const { lib, map } = current;
    (map.getSource(LINE_SOURCE) as MaplibreTypes.GeoJSONSource | undefined)?.setData(lineData(line, breaks));
    if (cluster) {
      for (const marker of clusterLabels.current.values()) marker.remove();
      clusterLabels.current.clear();
      (map.getSource(POINT_SOURCE) as MaplibreTypes.GeoJSONSource | undefined)?.setData(pointData(markers));
    }
    placeHtmlMarkers(lib, map);
    popup?.instance.remove();
    const bounds = props.bounds ? null : boundsOf([...(line ?? []), ...markers.map((m) => [m.lng, m.lat] as const)]);
    if (bounds) {
      if (bounds[0] === bounds[2] && bounds[1] === bounds[3]) map.jumpTo({ center: [bounds[0], bounds[1]], zoom });
      else map.fitBounds(bounds as [number, number, number, number], { padding: 36, maxZoom, animate: false });
    }
  }, [dataKey, ready]);

  // Re-anchor the popup once React has rendered its content.
  useEffect(() => {
    if (popup) popup.instance.setLngLat(popup.instance.getLngLat());
  }, [popup]);

  return (
    <div ref={frame} className={`relative isolate overflow-hidden bg-[#cfdfe6] ${className}`} data-map-ready={ready}>
      <div className="absolute inset-0" hidden={ready} aria-hidden={ready || undefined}>
        {fallback ?? <StaticMap label={label} line={line} breaks={breaks} markers={markers} />}
      </div>
      {/* MapLibre makes its container position: relative; the wrapper keeps it filling the frame. */}
      <div className="absolute inset-0">
        <div ref={canvasHost} className="h-full w-full" />
      </div>
      {popup &&
        createPortal(
          renderPopup ? (
            renderPopup(popup.marker)
          ) : popup.marker.href ? (
            <a href={popup.marker.href} className="font-semibold text-brand-700 underline">
              {popup.marker.label}
            </a>
          ) : (
            <span className="font-semibold">{popup.marker.label}</span>
          ),
          popup.el,
        )}
    </div>
  );
}
