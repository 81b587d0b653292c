/**
 * Posters (issue 15): start a design from a course, an uploaded track or the member's activity, save
 * it, list and delete, and export it through the `poster-export` job. The first export of a poster
 * spends a credit (credits-port.ts); after it, POSTER_EDIT_LIMIT saves are allowed.
 */

import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { ownActivityWithLine } from "../activities/activity-reads.server.ts";
import { courseTrack, courseWithEvent, trackById } from "../events/event-reads.server.ts";
import { type Limit, rateLimiter } from "../identity/rate-limit.server.ts";
import type { TrackPoint } from "../maps/geometry.ts";
import type { FileStorage } from "../media/storage.server.ts";
import { memberTimeOfResult, memberTimeOnCourse } from "../results/result-reads.server.ts";
import { type BasemapSources, BasemapUnavailableError } from "./basemap/basemap.server.ts";
import { type BasemapLayer, type BBox, basemapBox } from "./basemap/layer.ts";
import { type OpenDataSource, withOpenData } from "./basemap/opendata.server.ts";
import type { PosterCredits } from "./credits-port.ts";
import {
  blankDesign,
  type CourseFacts,
  designFromCourse,
  type ExportFormat,
  type MapStyle,
  POSTER_EDIT_LIMIT,
  type PosterDesign,
  type PosterSourceType,
} from "./poster.contract.ts";
import { posterExports, posters } from "./posters.tables.ts";
import { serverFonts } from "./render/fonts.server.ts";
import { sceneToPdf } from "./render/pdf.server.ts";
import { sceneToPng } from "./render/png.server.ts";
import { renderPoster, styleAvailable } from "./render/render.ts";
import { sceneToSvg } from "./render/svg.ts";

export { POSTER_EDIT_LIMIT } from "./poster.contract.ts";
export const POSTER_EXPORT_QUEUE = "poster-export";
const GALLERY_SIZE = 48;

export type PosterSources = { tiles: boolean; dem: boolean; satellite?: boolean };

export type PosterDeps = {
  storage: FileStorage;
  sources: PosterSources;
  /** Poster credits (features/orders, through server/services.server.ts). */
  credits: PosterCredits;
  enqueue?: (queue: string, payload: unknown, options?: { tx?: Executor }) => Promise<number>;
  /** The map data of the styles that need it (basemap/basemap.server.ts); null: none configured. */
  basemap?: BasemapSources | null;
  /** France's towns and borders from the site's offline base map (decision 038); null: no data. */
  openData?: OpenDataSource | null;
};

const CONTENT_TYPES: Record<ExportFormat, string> = {
  svg: "image/svg+xml",
  png: "image/png",
  pdf: "application/pdf",
};

function exportView(row: typeof posterExports.$inferSelect) {
  return {
    id: row.id,
    format: row.format as ExportFormat,
    status: row.status,
    progress: row.progress,
    bytes: row.bytes,
    revision: row.revision,
  };
}

function posterView(row: typeof posters.$inferSelect, credits?: number) {
  return {
    id: row.id,
    design: row.design,
    track: row.track,
    trackBreaks: row.trackBreaks,
    exported: row.exportedAt != null,
    editsLeft: row.exportedAt ? Math.max(0, POSTER_EDIT_LIMIT - row.editsAfterExport) : null,
    revision: row.revision,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(credits != null ? { credits } : {}),
  };
}

/**
 * Map layers one address may ask the preview for in a window: the creator asks once per style and
 * frame, so this only stops a script from using the server as a proxy to the (possibly paid) tile
 * sources. Counted in PostgreSQL like every other limit (features/identity/rate-limit.server.ts):
 * several instances share it.
 */
export const BASEMAP_LIMIT: Limit = { max: 120, windowSeconds: 10 * 60 };

export function postersService(db: Db, clock: () => Date, deps: PosterDeps) {
  const credits = deps.credits;
  const limiter = rateLimiter(db, clock);

  async function courseFacts(courseId: number) {
    const row = await courseWithEvent(db, courseId, { activeOnly: true });
    if (!row) return null;
    const track = await courseTrack(db, courseId);
    const facts: CourseFacts = {
      courseId: row.id,
      eventName: row.eventName,
      courseName: row.name,
      date: row.startAt ? row.startAt.toISOString().slice(0, 10) : row.startDate,
      place: row.city,
      distanceM: row.distance ?? track?.distance ?? null,
      elevationGainM: row.elevationGain ?? track?.elevationGain ?? null,
    };
    return { facts, track: track?.points ?? null, breaks: track?.breaks ?? [] };
  }

  /** The source's track and starting design; NOT_FOUND when the caller may not use it. */
  async function source(
    type: PosterSourceType,
    id: number,
    userId: number | null,
    lang: "fr" | "en",
  ): Promise<{ design: PosterDesign; track: TrackPoint[]; breaks: number[] }> {
    if (type === "course") {
      const found = await courseFacts(id);
      if (!found?.track || found.track.length < 2) throw new ApiError("NOT_FOUND");
      const result = userId ? await memberTimeOnCourse(db, userId, id) : null;
      return { design: designFromCourse(found.facts, result, lang), track: found.track, breaks: found.breaks };
    }
    if (type === "track") {
      const row = await trackById(db, id);
      if (!row || row.points.length < 2) throw new ApiError("NOT_FOUND");
      if (row.courseId != null) {
        const found = await courseFacts(row.courseId);
        if (!found) throw new ApiError("NOT_FOUND");
        const design = designFromCourse(found.facts, null, lang);
        design.source = { type: "track", id };
        return { design, track: row.points, breaks: row.breaks };
      }
      if (row.uploadedBy !== userId) throw new ApiError("NOT_FOUND");
      const design = blankDesign({ type: "track", id }, row.name, lang);
      design.data.distanceM = row.distance;
      design.data.elevationGainM = row.elevationGain;
      design.show.elevationGain = row.elevationGain != null;
      design.show.date = false;
      return { design, track: row.points, breaks: row.breaks };
    }
    // The member's own activity (owner only, as its page): its recorded line, its figures; when it
    // is linked to a catalogue course, that race's names and the member's result on it.
    if (userId === null) throw new ApiError("NOT_FOUND");
    const row = await ownActivityWithLine(db, userId, id);
    if (!row || row.points.length < 2) throw new ApiError("NOT_FOUND");
    const seconds = row.elapsedTime ?? row.movingTime;
    const result = row.resultId ? await memberTimeOfResult(db, userId, row.resultId) : null;
    const course = row.courseId ? await courseFacts(row.courseId) : null;
    const design = course
      ? designFromCourse(
          { ...course.facts, date: row.startedAt.toISOString().slice(0, 10) },
          { timeMs: result?.timeMs ?? (seconds ? seconds * 1000 : null), rank: result?.rank ?? null },
          lang,
        )
      : blankDesign({ type: "activity", id }, row.name, lang);
    design.source = { type: "activity", id };
    if (!course) {
      design.data = {
        distanceM: row.distance > 0 ? row.distance : null,
        elevationGainM: row.elevationGain,
        timeMs: seconds ? seconds * 1000 : null,
        rank: null,
        date: row.startedAt.toISOString().slice(0, 10),
      };
      design.show.distance = design.data.distanceM != null;
      design.show.elevationGain = design.data.elevationGainM != null;
      design.show.time = design.data.timeMs != null;
    }
    return { design, track: row.points, breaks: row.breaks };
  }

  async function own(userId: number, id: number, tx: Executor = db, lock = false) {
    const query = tx
      .select()
      .from(posters)
      .where(and(eq(posters.id, id), eq(posters.userId, userId), isNull(posters.deletedAt)));
    const [row] = lock ? await query.for("update") : await query;
    if (!row) throw new ApiError("NOT_FOUND");
    return row;
  }

  function checkStyle(design: PosterDesign) {
    if (!styleAvailable(design.mapStyle, deps.sources))
      throw new ApiError("INVALID_FIELD", { field: "design.mapStyle" });
  }

  /**
   * The basemap layer of a style over `bbox` (Web Mercator) for about `pixels` across: the
   * configured sources' data, with France's towns and borders when asked for (null: nothing to
   * draw but the track). Throws BasemapUnavailableError when a configured source fails.
   */
  async function mapLayer(style: MapStyle, bbox: BBox, pixels: number, towns: boolean): Promise<BasemapLayer | null> {
    // The open data first: its first build reads the towns' reference synchronously (seconds),
    // which must not run while the sources' fetches count their time-outs.
    const open = towns && deps.openData ? await deps.openData.build(bbox, pixels) : null;
    const layer = deps.basemap ? await deps.basemap.build(style, bbox, pixels) : null;
    return withOpenData(layer, style, bbox, open);
  }

  return {
    sources: deps.sources,
    basemap: deps.basemap ?? null,
    /** Whether France's open map data is there (the creator's « Communes et limites »). */
    openData: deps.openData?.available ?? false,
    mapLayer,

    /** One request of the creator's preview for map data from this address, or TOO_MANY_ATTEMPTS. */
    countBasemapRequest: (ip: string) => limiter.hit(`poster-basemap:ip:${ip}`, BASEMAP_LIMIT),

    /** GET /api/poster/{type}/{id}: a new design from a source, or a saved poster. */
    async open(type: PosterSourceType | "poster", id: number, userId: number | null, lang: "fr" | "en") {
      if (type === "poster") {
        const [row] = await db
          .select()
          .from(posters)
          .where(and(eq(posters.id, id), isNull(posters.deletedAt)));
        const visible = row && (row.userId === userId || (!row.design.private && row.exportedAt != null));
        if (!visible) throw new ApiError("NOT_FOUND");
        const mine = row.userId === userId;
        return { poster: mine ? posterView(row, await credits.remaining(db, row.userId)) : posterView(row), mine };
      }
      const started = await source(type, id, userId, lang);
      return {
        poster: {
          id: null,
          design: started.design,
          track: started.track,
          trackBreaks: started.breaks,
          exported: false,
          editsLeft: null,
          revision: 0,
          ...(userId ? { credits: await credits.remaining(db, userId) } : {}),
        },
        mine: true,
      };
    },

    /** POST /api/poster: creates (no id) or saves a poster; after its export, POSTER_EDIT_LIMIT saves. */
    async save(userId: number, body: { id?: number | null; design: PosterDesign }) {
      checkStyle(body.design);
      if (body.id == null) {
        const started = await source(body.design.source.type, body.design.source.id, userId, body.design.lang);
        const [row] = await db
          .insert(posters)
          .values({
            userId,
            design: body.design,
            sourceType: body.design.source.type,
            sourceId: body.design.source.id,
            track: started.track,
            trackBreaks: started.breaks,
            title: body.design.title,
            isPrivate: body.design.private,
            createdAt: clock(),
            updatedAt: clock(),
          })
          .returning();
        return posterView(row);
      }
      const id = body.id;
      return db.transaction(async (tx) => {
        const row = await own(userId, id, tx, true);
        if (row.exportedAt && row.editsAfterExport >= POSTER_EDIT_LIMIT) throw new ApiError("POSTER_EDIT_LIMIT");
        // The source stays the one the poster was made from (its track is kept with it).
        const design = { ...body.design, source: row.design.source };
        const [saved] = await tx
          .update(posters)
          .set({
            design,
            title: design.title,
            isPrivate: design.private,
            revision: sql`${posters.revision} + 1`,
            editsAfterExport: row.exportedAt ? sql`${posters.editsAfterExport} + 1` : 0,
            updatedAt: clock(),
          })
          .where(eq(posters.id, id))
          .returning();
        return posterView(saved);
      });
    },

    /** GET /api/posters/{mode}: the member's posters, or the public gallery (exported, not private). */
    async list(mode: "mine" | "public", userId: number | null) {
      const columns = {
        id: posters.id,
        title: posters.title,
        design: posters.design,
        exportedAt: posters.exportedAt,
        updatedAt: posters.updatedAt,
      };
      const rows =
        mode === "mine"
          ? await db
              .select(columns)
              .from(posters)
              .where(and(eq(posters.userId, userId ?? -1), isNull(posters.deletedAt)))
              .orderBy(desc(posters.updatedAt), desc(posters.id))
          : await db
              .select(columns)
              .from(posters)
              .where(and(isNull(posters.deletedAt), eq(posters.isPrivate, false), isNotNull(posters.exportedAt)))
              .orderBy(desc(posters.exportedAt), desc(posters.id))
              .limit(GALLERY_SIZE);
      return {
        items: rows.map((r) => ({
          id: r.id,
          title: r.title,
          size: r.design.size,
          orientation: r.design.orientation,
          mapStyle: r.design.mapStyle,
          colors: r.design.colors,
          private: r.design.private,
          exported: r.exportedAt != null,
          updatedAt: r.updatedAt.toISOString(),
        })),
      };
    },

    async remove(userId: number, id: number) {
      await own(userId, id);
      await db.update(posters).set({ deletedAt: clock() }).where(eq(posters.id, id));
    },

    /**
     * The member is deleted (accounts' member data port, decision 048): their posters and exports
     * go; answers the exported files' storage keys, removed once the deletion has committed.
     */
    async removeMember(userId: number, tx: Executor): Promise<string[]> {
      const files = await tx
        .select({ file: posterExports.file })
        .from(posterExports)
        .innerJoin(posters, eq(posters.id, posterExports.posterId))
        .where(and(eq(posters.userId, userId), isNotNull(posterExports.file)));
      await tx.delete(posters).where(eq(posters.userId, userId));
      return files.flatMap((f) => (f.file ? [f.file] : []));
    },

    /**
     * Starts an export: the poster's first export spends a credit (in the same transaction, so a
     * refused credit changes nothing), then the job draws the file. An export of the same revision
     * and format already made or under way is returned instead of starting another.
     */
    async requestExport(userId: number, id: number, format: ExportFormat) {
      return db.transaction(async (tx) => {
        const row = await own(userId, id, tx, true);
        const [existing] = await tx
          .select()
          .from(posterExports)
          .where(
            and(
              eq(posterExports.posterId, id),
              eq(posterExports.format, format),
              eq(posterExports.revision, row.revision),
              sql`${posterExports.status} <> 'failed'`,
            ),
          )
          .orderBy(desc(posterExports.id))
          .limit(1);
        if (existing) return exportView(existing);
        if (!row.exportedAt) {
          await credits.consume(tx, userId, id);
          await tx.update(posters).set({ exportedAt: clock() }).where(eq(posters.id, id));
        }
        const [created] = await tx
          .insert(posterExports)
          .values({ posterId: id, format, revision: row.revision, createdAt: clock() })
          .returning();
        await deps.enqueue?.(POSTER_EXPORT_QUEUE, { exportId: created.id }, { tx });
        return exportView(created);
      });
    },

    /** The latest export of a format for the current revision, with its file when done. */
    async exportFile(userId: number, id: number, format: ExportFormat) {
      const row = await own(userId, id);
      const [latest] = await db
        .select()
        .from(posterExports)
        .where(
          and(
            eq(posterExports.posterId, id),
            eq(posterExports.format, format),
            eq(posterExports.revision, row.revision),
          ),
        )
        .orderBy(desc(posterExports.id))
        .limit(1);
      if (!latest) throw new ApiError("NOT_FOUND");
      if (latest.status !== "done" || !latest.file)
        return {
          export: exportView(latest),
          file: null,
          // A map source that failed says so (translated); anything else is a generic failure.
          failure: latest.error?.startsWith("POSTER_MAP_UNAVAILABLE") ? ("POSTER_MAP_UNAVAILABLE" as const) : null,
        };
      const bytes = await deps.storage.read(latest.file);
      if (!bytes) throw new ApiError("FILE_NOT_FOUND");
      const name = `${
        row.title
          .normalize("NFD")
          .replace(/[^\w\s-]/g, "")
          .trim()
          .replace(/\s+/g, "-")
          .toLowerCase()
          .slice(0, 60) || "poster"
      }-${row.design.size}.${format}`;
      return { export: exportView(latest), file: { bytes, contentType: CONTENT_TYPES[format], name } };
    },

    /** The job: draws the export, writing progress as it goes (idempotent: a re-run redraws). */
    async runExport(exportId: number) {
      const [job] = await db.select().from(posterExports).where(eq(posterExports.id, exportId));
      if (!job || job.status === "done") return;
      const [poster] = await db.select().from(posters).where(eq(posters.id, job.posterId));
      if (!poster) return;
      const progress = (value: number, status: "running" | "done" = "running") =>
        db.update(posterExports).set({ progress: value, status }).where(eq(posterExports.id, exportId));
      await progress(10);
      try {
        const track = { points: poster.track, breaks: poster.trackBreaks };
        let scene = renderPoster(poster.design, track, serverFonts());
        // The map data of the style, fetched for the map's frame at the print's resolution (decision 037).
        if (scene.view) {
          const pixels = Math.round((scene.map.w / 25.4) * 300);
          const { mapStyle, towns } = poster.design;
          const layer = await mapLayer(mapStyle, basemapBox(scene.view, 0.02), pixels, towns);
          if (layer) scene = renderPoster(poster.design, track, serverFonts(), layer);
        }
        await progress(40);
        const format = job.format as ExportFormat;
        const bytes =
          format === "svg"
            ? Buffer.from(sceneToSvg(scene, { title: poster.title }))
            : format === "png"
              ? sceneToPng(scene)
              : await sceneToPdf(scene, { title: poster.title });
        await progress(90);
        const key = `poster/${poster.id}/${exportId}-r${job.revision}.${format}`;
        await deps.storage.put(key, bytes, CONTENT_TYPES[format]);
        await db
          .update(posterExports)
          .set({ status: "done", progress: 100, file: key, bytes: bytes.length, finishedAt: clock() })
          .where(eq(posterExports.id, exportId));
      } catch (error) {
        await db
          .update(posterExports)
          .set({
            status: "failed",
            error:
              `${error instanceof BasemapUnavailableError ? "POSTER_MAP_UNAVAILABLE: " : ""}${String(error)}`.slice(
                0,
                2000,
              ),
            finishedAt: clock(),
          })
          .where(eq(posterExports.id, exportId));
        throw error;
      }
    },
  };
}
export type PostersService = ReturnType<typeof postersService>;
