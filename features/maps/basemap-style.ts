/**
 * The offline base map's MapLibre style (decision 016): France's land, region, department and
 * commune borders and town labels from IGN/INSEE open data, neighbouring countries from Natural
 * Earth, drawn in the site's muted colours (app/app.css) so that race markers and course lines
 * (brand orange) stand out. Served by features/maps/maps.routes.server.ts with the tile, glyph and
 * sprite URLs of this server; isomorphic so that tests and the SVG drawing share the palette.
 */
import type { ExpressionSpecification, StyleSpecification } from "maplibre-gl";
import type { Locale } from "../../shared/constants.ts";

/** Vector tiles are made up to this zoom; MapLibre overzooms them beyond. */
export const BASEMAP_MAX_ZOOM = 12;
/** Commune borders appear from this zoom. */
export const COMMUNES_MIN_ZOOM = 10;

export const BASEMAP_FONTS = { regular: "Noto Sans Regular", bold: "Noto Sans SemiBold" } as const;
export type BasemapFont = (typeof BASEMAP_FONTS)[keyof typeof BASEMAP_FONTS];

/** Colours: warm grey land on a soft blue-grey sea, borders a shade darker, labels in the site's ink. */
export const BASEMAP_COLORS = {
  sea: "#cfdfe6",
  land: "#f5f2ec",
  neighbour: "#e7e4dd",
  coast: "#9dbac7",
  countryBorder: "#a59f94",
  regionBorder: "#aaa296",
  departmentBorder: "#c4bdb1",
  communeBorder: "#d6cfc2",
  townText: "#2f3f57",
  cityText: "#132238",
  countryText: "#7a8496",
  seaText: "#6f8fa0",
  halo: "#fbfaf7",
} as const;

/**
 * The smallest population of the towns a tile of zoom `z` carries: France's largest cities on the
 * whole-country view, every commune from zoom 12. MapLibre then hides labels that would collide,
 * placing the most populous first.
 */
export function townMinPopulation(z: number): number {
  if (z <= 4) return 200_000;
  if (z === 5) return 100_000;
  if (z === 6) return 40_000;
  if (z === 7) return 15_000;
  if (z === 8) return 6_000;
  if (z === 9) return 2_500;
  if (z === 10) return 800;
  if (z === 11) return 200;
  return 0;
}

export type BasemapStyleOptions = {
  /** Absolute URL template of the tiles ({z}/{x}/{y}). */
  tiles: string;
  /** Absolute URL template of the glyphs ({fontstack}/{range}.pbf). */
  glyphs: string;
  /** Absolute URL of the sprite, without extension. */
  sprite: string;
  attribution: string;
  locale: Locale;
};

const SOURCE = "basemap";

export function basemapStyle(options: BasemapStyleOptions): StyleSpecification {
  const c = BASEMAP_COLORS;
  const name = options.locale === "en" ? "name_en" : "name_fr";
  return {
    version: 8,
    name: "Dossard",
    glyphs: options.glyphs,
    sprite: options.sprite,
    sources: {
      [SOURCE]: {
        type: "vector",
        tiles: [options.tiles],
        minzoom: 0,
        maxzoom: BASEMAP_MAX_ZOOM,
        attribution: options.attribution,
      },
    },
    layers: [
      { id: "sea", type: "background", paint: { "background-color": c.sea } },
      {
        id: "neighbours",
        type: "fill",
        source: SOURCE,
        "source-layer": "countries",
        paint: { "fill-color": c.neighbour },
      },
      {
        // Natural Earth's coarse frontier of France, about 3 km wide under France's land: fills the
        // slivers between its borders and IGN's with the neighbours' colour.
        id: "frontier-fill",
        type: "line",
        source: SOURCE,
        "source-layer": "frontier",
        layout: { "line-join": "round", "line-cap": "butt" },
        paint: {
          "line-color": c.neighbour,
          "line-width": ["interpolate", ["exponential", 2], ["zoom"], 4, 0.9, 16, 3600],
        },
      },
      {
        id: "country-borders",
        type: "line",
        source: SOURCE,
        "source-layer": "country-borders",
        layout: { "line-join": "round" },
        paint: {
          "line-color": c.countryBorder,
          "line-width": ["interpolate", ["linear"], ["zoom"], 4, 0.6, 10, 1.4],
          "line-dasharray": [3, 2],
        },
      },
      { id: "land", type: "fill", source: SOURCE, "source-layer": "land", paint: { "fill-color": c.land } },
      {
        id: "commune-borders",
        type: "line",
        source: SOURCE,
        "source-layer": "communes",
        minzoom: COMMUNES_MIN_ZOOM,
        layout: { "line-join": "round" },
        paint: {
          "line-color": c.communeBorder,
          "line-width": ["interpolate", ["linear"], ["zoom"], 10, 0.5, 14, 1.2],
        },
      },
      {
        id: "department-borders",
        type: "line",
        source: SOURCE,
        "source-layer": "boundaries",
        filter: ["==", ["get", "level"], "department"],
        layout: { "line-join": "round" },
        paint: {
          "line-color": c.departmentBorder,
          "line-width": ["interpolate", ["linear"], ["zoom"], 4, 0.4, 7, 0.9, 12, 1.6],
        },
      },
      {
        id: "region-borders",
        type: "line",
        source: SOURCE,
        "source-layer": "boundaries",
        filter: ["==", ["get", "level"], "region"],
        layout: { "line-join": "round" },
        paint: {
          "line-color": c.regionBorder,
          "line-width": ["interpolate", ["linear"], ["zoom"], 4, 0.8, 7, 1.4, 12, 2.4],
        },
      },
      {
        id: "land-borders",
        type: "line",
        source: SOURCE,
        "source-layer": "boundaries",
        filter: ["==", ["get", "level"], "border"],
        layout: { "line-join": "round" },
        paint: {
          "line-color": c.countryBorder,
          "line-width": ["interpolate", ["linear"], ["zoom"], 4, 0.9, 7, 1.5, 12, 2.6],
        },
      },
      {
        id: "coastline",
        type: "line",
        source: SOURCE,
        "source-layer": "boundaries",
        filter: ["==", ["get", "level"], "outline"],
        layout: { "line-join": "round" },
        paint: {
          "line-color": c.coast,
          "line-width": ["interpolate", ["linear"], ["zoom"], 4, 0.6, 10, 1.2],
        },
      },
      {
        id: "sea-labels",
        type: "symbol",
        source: SOURCE,
        "source-layer": "places",
        filter: ["==", ["get", "kind"], "sea"],
        maxzoom: 8,
        layout: {
          "text-field": ["get", name],
          "text-font": [BASEMAP_FONTS.regular],
          "text-size": 12,
          "text-letter-spacing": 0.1,
          "text-max-width": 6,
        },
        paint: { "text-color": c.seaText, "text-halo-color": c.sea, "text-halo-width": 1 },
      },
      {
        id: "country-labels",
        type: "symbol",
        source: SOURCE,
        "source-layer": "places",
        filter: ["==", ["get", "kind"], "country"],
        maxzoom: 9,
        layout: {
          "text-field": ["get", name],
          "text-font": [BASEMAP_FONTS.regular],
          "text-size": 12,
          "text-transform": "uppercase",
          "text-letter-spacing": 0.12,
        },
        paint: { "text-color": c.countryText, "text-halo-color": c.neighbour, "text-halo-width": 1.2 },
      },
      townLayer("towns", ["<", ["get", "population"], 30_000], {
        font: BASEMAP_FONTS.regular,
        color: c.townText,
        size: ["interpolate", ["linear"], ["zoom"], 8, 11, 12, 12.5, 14, 14],
        icon: "town",
      }),
      townLayer("cities", [">=", ["get", "population"], 30_000], {
        font: BASEMAP_FONTS.bold,
        color: c.cityText,
        size: [
          "interpolate",
          ["linear"],
          ["zoom"],
          5,
          ["interpolate", ["linear"], ["get", "population"], 30_000, 11, 300_000, 13],
          10,
          ["interpolate", ["linear"], ["get", "population"], 30_000, 13.5, 300_000, 16],
        ],
        icon: "city",
      }),
    ],
  };
}

type Expression = ExpressionSpecification;

/** Towns as a dot and a name beside it, the most populous placed first. */
function townLayer(
  id: string,
  filter: Expression,
  look: { font: BasemapFont; color: string; size: Expression; icon: string },
): StyleSpecification["layers"][number] {
  return {
    id,
    type: "symbol",
    source: SOURCE,
    "source-layer": "places",
    filter: ["all", ["==", ["get", "kind"], "town"], filter],
    layout: {
      "symbol-sort-key": ["-", 0, ["get", "population"]],
      "icon-image": look.icon,
      "icon-size": ["interpolate", ["linear"], ["zoom"], 5, 0.8, 12, 1],
      "text-field": ["get", "name"],
      "text-font": [look.font],
      "text-size": look.size,
      "text-max-width": 8,
      "text-variable-anchor": ["left", "right", "top", "bottom"],
      "text-radial-offset": 0.55,
      "text-justify": "auto",
      "text-padding": 3,
    } as never,
    paint: {
      "text-color": look.color,
      "text-halo-color": BASEMAP_COLORS.halo,
      "text-halo-width": 1.4,
      "text-halo-blur": 0.2,
    },
  };
}
