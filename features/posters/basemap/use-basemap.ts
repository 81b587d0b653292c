/**
 * The creator's copy of the map data (decision 037): asks GET /api/poster/basemap for the layer of
 * the chosen style over the preview's map frame (grown by 10 %, so small layout changes keep it),
 * again only when the frame leaves it or its scale changes much. Until it comes the renderer draws
 * "trace"; a source that fails is told once (the caller's toast) and the preview stays as it is.
 */
import { useEffect, useRef } from "react";
import { apiFetch } from "../../../shared/api-client.ts";
import { MAP_STYLES, type MapSource, type MapStyle } from "../poster.contract.ts";
import { type BasemapLayer, type BBox, basemapBox, bboxToDegrees, layerCovers } from "./layer.ts";

/** Pixels across the preview's map: enough for a sharp preview on a high-density screen. */
const PREVIEW_PX = 1200;

/** The layer shown and whether it was asked with France's towns and borders (decision 038). */
export type PreviewLayer = { layer: BasemapLayer | null; towns: boolean };

export function useBasemap(
  style: MapStyle,
  towns: boolean,
  view: BBox | null | undefined,
  styles: readonly { id: MapStyle; needs: MapSource | null; available: boolean }[],
  current0: PreviewLayer,
  setLayer: (layer: PreviewLayer) => void,
  onError: (response: Response) => void,
) {
  const demConfigured = styles.some((s) => s.needs === "dem" && s.available);
  const available = styles.find((s) => s.id === style)?.available ?? false;
  const wanted =
    available && (towns || MAP_STYLES[style].needs != null || (demConfigured && style.startsWith("contours")));
  const viewKey = view?.map((v) => v.toFixed(7)).join(",") ?? "";
  const failed = useRef<string | null>(null);
  const current = useRef(current0);
  current.current = current0;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the view is followed through its key.
  useEffect(() => {
    if (!wanted || !view) return;
    const { layer: have, towns: haveTowns } = current.current;
    if (have && have.style === style && (haveTowns || !towns) && layerCovers(have, view)) return;
    const box = bboxToDegrees(basemapBox(view, 0.1));
    const query = new URLSearchParams({
      style,
      bbox: box.map((v) => v.toFixed(6)).join(","),
      px: String(PREVIEW_PX),
      ...(towns ? { towns: "1" } : {}),
    });
    const key = query.toString();
    if (failed.current === key) return;
    const abort = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const response = await apiFetch(`/api/poster/basemap?${key}`, { signal: abort.signal });
        if (!response.ok) {
          failed.current = key;
          onError(response);
          return;
        }
        const body = (await response.json()) as { layer: BasemapLayer | null };
        if (!abort.signal.aborted) setLayer({ layer: body.layer, towns });
      } catch {
        // Aborted (a newer frame) or offline: the preview keeps what it has.
      }
    }, 200);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [wanted, style, towns, viewKey]);
}
