/**
 * The poster's design object (issue 15): a plain, versioned description of one poster, validated
 * by zod at the edge and read by the one renderer (render/) in the browser preview and on the
 * server. Everything the poster shows is in here (the track itself comes from its source), so the
 * preview of a saved design is exactly its export.
 * Isomorphic: the creator page builds and checks it with the same rules.
 */
import { z } from "zod";
import type { ErrorCode } from "../../shared/api-error.ts";
import { isoDay, rowId, text } from "../../shared/input.ts";

const code = (c: ErrorCode) => ({ message: c });

export const POSTER_DESIGN_VERSION = 1 as const;

/** Paper sizes in millimetres, portrait (width, height). */
export const POSTER_SIZES = {
  A4: [210, 297],
  A3: [297, 420],
  A2: [420, 594],
  "30x40": [300, 400],
  "40x50": [400, 500],
  "50x70": [500, 700],
} as const satisfies Record<string, readonly [number, number]>;
export type PosterSize = keyof typeof POSTER_SIZES;
export const POSTER_SIZE_IDS = Object.keys(POSTER_SIZES) as [PosterSize, ...PosterSize[]];

/** The embedded open fonts (SIL OFL, npm @fontsource/*): the output never depends on installed fonts. */
export const POSTER_FONTS = ["noto-sans", "oswald", "playfair-display"] as const;
export type PosterFont = (typeof POSTER_FONTS)[number];

/**
 * The spec's map styles. `needs` names the outside data a style draws from: styles whose source is
 * not configured (POSTER_TILES_URL, POSTER_DEM_URL, POSTER_SATELLITE_URL) are hidden from visitors
 * and shown disabled to admins; the others are drawn from the track alone.
 */
export const MAP_STYLES = {
  trace: { needs: null },
  colour: { needs: null },
  "contours-light": { needs: null },
  "contours-blue": { needs: null },
  "contours-green": { needs: null },
  terrain: { needs: "tiles" },
  roads: { needs: "tiles" },
  city: { needs: "tiles" },
  satellite: { needs: "satellite" },
  relief: { needs: "dem" },
  "relief-simple": { needs: "dem" },
  "relief-detailed": { needs: "dem" },
  "relief-dark": { needs: "dem" },
} as const satisfies Record<string, { needs: MapSource | null }>;
/** The outside data sources: vector tiles, elevation tiles, raster imagery (decision 037). */
export type MapSource = "tiles" | "dem" | "satellite";
export type MapStyle = keyof typeof MAP_STYLES;
export const MAP_STYLE_IDS = Object.keys(MAP_STYLES) as [MapStyle, ...MapStyle[]];
/** Styles drawn by this version of the renderer when their source is configured (decision 037): all. */
export const RENDERED_MAP_STYLES: readonly MapStyle[] = MAP_STYLE_IDS;

export const POSTER_SOURCE_TYPES = ["course", "track", "activity"] as const;
export type PosterSourceType = (typeof POSTER_SOURCE_TYPES)[number];

const hex = z.string().regex(/^#[0-9a-fA-F]{6}$/, code("INVALID_FIELD"));

export type PosterColors = { background: string; track: string; text: string; accent: string };

/** Curated palettes (background, track, text, accent); "custom" keeps the member's colours. */
export const POSTER_PALETTES = {
  paper: { background: "#f4efe6", track: "#c2410c", text: "#1f2937", accent: "#9a8c7a" },
  night: { background: "#0f172a", track: "#facc15", text: "#f8fafc", accent: "#64748b" },
  alpine: { background: "#e8f0ee", track: "#1d4ed8", text: "#0f2a3d", accent: "#7aa39a" },
  forest: { background: "#1f3a2e", track: "#f97316", text: "#f1f5e9", accent: "#6b8f71" },
  mono: { background: "#ffffff", track: "#111111", text: "#111111", accent: "#9ca3af" },
  sunset: { background: "#fff1e6", track: "#be185d", text: "#3b0a2a", accent: "#f59e0b" },
} as const satisfies Record<string, PosterColors>;
export type PosterPalette = keyof typeof POSTER_PALETTES | "custom";
export const POSTER_PALETTE_IDS = [...Object.keys(POSTER_PALETTES), "custom"] as unknown as [
  PosterPalette,
  ...PosterPalette[],
];

export const POSTER_DATA_FLAGS = [
  "distance",
  "elevationGain",
  "time",
  "pace",
  "date",
  "rank",
  "elevationProfile",
  "startFinish",
  "kmMarkers",
] as const;
export type PosterDataFlag = (typeof POSTER_DATA_FLAGS)[number];

/** Saves allowed after a poster's export (spec: "Poster edit limit reached"). */
export const POSTER_EDIT_LIMIT = 3;

export const TITLE_MAX = 80;
export const SUBTITLE_MAX = 140;
export const MARGIN_MIN_MM = 5;
export const MARGIN_MAX_MM = 60;

const optionalNumber = (schema: z.ZodNumber) => z.union([schema, z.null()]).default(null);

export const posterDesignSchema = z.object({
  version: z.literal(POSTER_DESIGN_VERSION, code("INVALID_FIELD")),
  source: z.object({ type: z.enum(POSTER_SOURCE_TYPES, code("INVALID_FIELD")), id: rowId }),
  title: text().trim().max(TITLE_MAX, code("INVALID_FIELD")),
  subtitle: text().trim().max(SUBTITLE_MAX, code("INVALID_FIELD")),
  palette: z.enum(POSTER_PALETTE_IDS, code("INVALID_FIELD")),
  colors: z.object({ background: hex, track: hex, text: hex, accent: hex }),
  font: z.enum(POSTER_FONTS, code("INVALID_FIELD")),
  orientation: z.enum(["portrait", "landscape"], code("INVALID_FIELD")),
  size: z.enum(POSTER_SIZE_IDS, code("INVALID_FIELD")),
  /** Margin around the whole poster, millimetres. */
  marginMm: z
    .number(code("INVALID_FIELD"))
    .min(MARGIN_MIN_MM, code("INVALID_FIELD"))
    .max(MARGIN_MAX_MM, code("INVALID_FIELD")),
  textPosition: z.enum(["top", "bottom"], code("INVALID_FIELD")),
  mapStyle: z.enum(MAP_STYLE_IDS, code("INVALID_FIELD")),
  /**
   * « Communes et limites »: France's borders and town names from the open data (decision 038).
   * Designs saved before it have none (false): they keep looking as they were exported.
   */
  towns: z.boolean(code("INVALID_FIELD")).default(false),
  show: z.object(
    Object.fromEntries(POSTER_DATA_FLAGS.map((f) => [f, z.boolean(code("INVALID_FIELD"))])) as Record<
      PosterDataFlag,
      z.ZodBoolean
    >,
  ),
  /** The figures printed (defaults from the course and the member's result; the member may edit them). */
  data: z.object({
    distanceM: optionalNumber(z.number().int().min(0).max(10_000_000)),
    elevationGainM: optionalNumber(z.number().int().min(0).max(100_000)),
    timeMs: optionalNumber(
      z
        .number()
        .int()
        .min(1)
        .max(30 * 24 * 3_600_000),
    ),
    rank: optionalNumber(z.number().int().min(1).max(1_000_000)),
    date: z.union([isoDay, z.null()]).default(null),
  }),
  /** Language of the words printed on the poster (labels, date). */
  lang: z.enum(["fr", "en"], code("INVALID_FIELD")),
  private: z.boolean(code("INVALID_FIELD")),
});
export type PosterDesign = z.output<typeof posterDesignSchema>;
export type PosterDesignInput = z.input<typeof posterDesignSchema>;

/** What a course (and its event) gives a new poster. */
export type CourseFacts = {
  courseId: number;
  eventName: string;
  courseName: string;
  /** ISO day of the start. */
  date: string | null;
  place: string | null;
  distanceM: number | null;
  elevationGainM: number | null;
};

/** The member's own result on that course, when they have one. */
export type ResultFacts = { timeMs: number | null; rank: number | null };

export const DEFAULT_SHOW: Record<PosterDataFlag, boolean> = {
  distance: true,
  elevationGain: true,
  time: false,
  pace: false,
  date: true,
  rank: false,
  elevationProfile: true,
  startFinish: true,
  kmMarkers: false,
};

/** A fresh design with nothing from a course: used for uploads and as the base of the others. */
export function blankDesign(source: PosterDesign["source"], title = "", lang: "fr" | "en" = "fr"): PosterDesign {
  return {
    version: POSTER_DESIGN_VERSION,
    source,
    title: title.slice(0, TITLE_MAX),
    subtitle: "",
    palette: "paper",
    colors: { ...POSTER_PALETTES.paper },
    font: "oswald",
    orientation: "portrait",
    size: "A3",
    marginMm: 15,
    textPosition: "bottom",
    mapStyle: "contours-light",
    towns: true,
    show: { ...DEFAULT_SHOW },
    data: { distanceM: null, elevationGainM: null, timeMs: null, rank: null, date: null },
    lang,
    private: false,
  };
}

/**
 * The design a course starts with: the event's name as title, "course · place" as subtitle, its
 * date, distance and D+; with the member's result, their time, pace and rank are shown too.
 */
export function designFromCourse(
  course: CourseFacts,
  result?: ResultFacts | null,
  lang: "fr" | "en" = "fr",
): PosterDesign {
  const design = blankDesign({ type: "course", id: course.courseId }, course.eventName, lang);
  const subtitle = [course.courseName !== course.eventName ? course.courseName : null, course.place]
    .filter(Boolean)
    .join(" · ");
  design.subtitle = subtitle.slice(0, SUBTITLE_MAX);
  design.data = {
    distanceM: course.distanceM,
    elevationGainM: course.elevationGainM,
    timeMs: result?.timeMs ?? null,
    rank: result?.rank ?? null,
    date: course.date,
  };
  design.show.distance = course.distanceM != null;
  design.show.elevationGain = course.elevationGainM != null;
  design.show.date = course.date != null;
  design.show.time = design.data.timeMs != null;
  design.show.pace = design.data.timeMs != null && course.distanceM != null && course.distanceM > 0;
  design.show.rank = design.data.rank != null;
  return design;
}

/** Paper size in mm after orientation. */
export function paperMm(design: Pick<PosterDesign, "size" | "orientation">): [number, number] {
  const [w, h] = POSTER_SIZES[design.size];
  return design.orientation === "portrait" ? [w, h] : [h, w];
}

export const EXPORT_FORMATS = ["svg", "png", "pdf"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const PNG_DPI = 300;

// ---- API answers ----

const trackPointSchema = z.tuple([z.number(), z.number(), z.number().nullable()]);

export const posterViewSchema = z.object({
  id: z.number().int().nullable(),
  design: posterDesignSchema,
  track: z.array(trackPointSchema),
  /** Indexes in `track` where a new segment starts: the poster draws no line across the gap. */
  trackBreaks: z.array(z.number().int()),
  exported: z.boolean(),
  /** Saves left after the export (null before it). */
  editsLeft: z.number().int().nullable(),
  revision: z.number().int(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  /** The caller's poster credits left (their own posters and new designs only). */
  credits: z.number().int().optional(),
});
export type PosterView = z.infer<typeof posterViewSchema>;

export const posterOpenSchema = z.object({ poster: posterViewSchema, mine: z.boolean() });

export const posterListSchema = z.object({
  items: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      size: z.enum(POSTER_SIZE_IDS),
      orientation: z.enum(["portrait", "landscape"]),
      mapStyle: z.enum(MAP_STYLE_IDS),
      colors: z.object({ background: z.string(), track: z.string(), text: z.string(), accent: z.string() }),
      private: z.boolean(),
      exported: z.boolean(),
      updatedAt: z.string(),
    }),
  ),
});

export const posterExportSchema = z.object({
  export: z.object({
    id: z.number().int(),
    format: z.enum(EXPORT_FORMATS),
    status: z.enum(["pending", "running", "done", "failed"]),
    progress: z.number().int(),
    bytes: z.number().int().nullable(),
    revision: z.number().int(),
  }),
});
export type PosterExport = z.infer<typeof posterExportSchema>["export"];

export const posterProductsSchema = z.object({
  products: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(["credits", "print"]),
      credits: z.number().int().optional(),
      size: z.enum(POSTER_SIZE_IDS).optional(),
      paper: z.string().optional(),
      priceCents: z.number().int(),
    }),
  ),
  editLimit: z.number().int(),
  styles: z.array(
    z.object({
      id: z.enum(MAP_STYLE_IDS),
      needs: z.enum(["tiles", "dem", "satellite"]).nullable(),
      available: z.boolean(),
    }),
  ),
  /** Whether France's open map data is there for « Communes et limites » (decision 038). */
  openData: z.boolean(),
});
