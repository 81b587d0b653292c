import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  varchar,
} from "drizzle-orm/pg-core";
import type { TrackPoint } from "../events/events.tables.ts";
import { users } from "../identity/identity.tables.ts";
import type { PosterDesign } from "./poster.contract.ts";

export const posterExportStatus = pgEnum("poster_export_status", ["pending", "running", "done", "failed"]);

/**
 * A member's poster: its design object (poster.contract.ts) and a copy of the track it was made
 * from (uploads are purged after a day and courses' tracks may change: the poster keeps its line).
 * `exported_at` is set by the first export, which spends the credit; later saves count in
 * `edits_after_export` up to POSTER_EDIT_LIMIT. Deleted posters are kept hidden (`deleted_at`), so
 * deleting an exported poster does not give its credit back.
 */
export const posters = pgTable(
  "posters",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    design: jsonb("design").$type<PosterDesign>().notNull(),
    sourceType: varchar("source_type", { length: 16 }).notNull(),
    sourceId: integer("source_id").notNull(),
    track: jsonb("track").$type<TrackPoint[]>().notNull(),
    /** Indexes in `track` where a new segment starts (a copy of the source's, like the line). */
    trackBreaks: jsonb("track_breaks").$type<number[]>().notNull().default([]),
    title: text("title").notNull(),
    isPrivate: boolean("is_private").notNull().default(false),
    /** Bumped on every save: an export names the revision it drew. */
    revision: integer("revision").notNull().default(1),
    exportedAt: timestamp("exported_at", { withTimezone: true }),
    editsAfterExport: smallint("edits_after_export").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    index("posters_user_idx").on(t.userId, t.updatedAt),
    index("posters_gallery_idx").on(t.exportedAt).where(sql`${t.deletedAt} IS NULL AND NOT ${t.isPrivate}`),
    check("posters_edits", sql`${t.editsAfterExport} >= 0`),
  ],
);

/** One export of a poster in one format, made by the `poster-export` job; the file is kept in storage. */
export const posterExports = pgTable(
  "poster_exports",
  {
    id: serial("id").primaryKey(),
    posterId: integer("poster_id")
      .notNull()
      .references(() => posters.id, { onDelete: "cascade" }),
    format: varchar("format", { length: 8 }).notNull(),
    revision: integer("revision").notNull(),
    status: posterExportStatus("status").notNull().default("pending"),
    /** 0–100. */
    progress: smallint("progress").notNull().default(0),
    /** Storage path (under DATA_DIR/uploads/poster/) once done. */
    file: text("file"),
    bytes: integer("bytes"),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("poster_exports_poster_idx").on(t.posterId, t.format, t.createdAt)],
);
