import { sql } from "drizzle-orm";
import {
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
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import { RESULT_IMPORT_STATUSES, RESULT_SOURCES, RESULT_STATUSES } from "../../shared/constants.ts";
import { courses, events } from "../events/events.tables.ts";
import { users } from "../identity/identity.tables.ts";
import { RESULT_CLAIM_STATUSES } from "./claims.contract.ts";

export const resultStatus = pgEnum("result_status", RESULT_STATUSES);
export const resultSource = pgEnum("result_source", RESULT_SOURCES);
export const resultImportStatus = pgEnum("result_import_status", RESULT_IMPORT_STATUSES);

/**
 * One import of a results file into one course of one edition: the uploaded rows wait here (payload)
 * while the background job writes them in one transaction; progress is read by the organiser's page.
 */
export const resultImports = pgTable(
  "result_imports",
  {
    id: serial("id").primaryKey(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    status: resultImportStatus("status").notNull().default("pending"),
    fileName: text("file_name"),
    /** The column mapping used (field → column index), after the user's corrections. */
    mapping: jsonb("mapping"),
    /** The parsed rows waiting for the job; cleared once imported. */
    payload: jsonb("payload"),
    totalRows: integer("total_rows").notNull().default(0),
    processedRows: integer("processed_rows").notNull().default(0),
    /** Translated-message key and its values when the import failed. */
    error: jsonb("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("result_imports_course_idx").on(t.courseId)],
);

/**
 * One runner's line in a course's results (spec: rank, category rank, bib, name, club, sex, country,
 * category, time, pace), imported from a timing company's file or recorded by a member by hand.
 * Times are milliseconds (files carry tenths); pace is seconds per km, computed from the course.
 */
export const results = pgTable(
  "results",
  {
    id: serial("id").primaryKey(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    /** The edition (denormalised from the course) for per-edition queries. */
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    importId: integer("import_id").references(() => resultImports.id, { onDelete: "set null" }),
    source: resultSource("source").notNull().default("import"),
    status: resultStatus("status").notNull().default("finished"),
    /** Order of the line in the file (keeps DNF rows in place). */
    position: integer("position").notNull().default(0),
    rank: integer("rank"),
    sexRank: integer("sex_rank"),
    categoryRank: integer("category_rank"),
    bib: varchar("bib", { length: 16 }),
    name: text("name").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    club: text("club"),
    /** "M", "F" or null. */
    sex: varchar("sex", { length: 1 }),
    /** ISO 3166 alpha-2 or alpha-3 as the file gave it, upper case. */
    country: varchar("country", { length: 3 }),
    category: varchar("category", { length: 24 }),
    timeMs: integer("time_ms"),
    netTimeMs: integer("net_time_ms"),
    paceSPerKm: integer("pace_s_per_km"),
    /** The member who claimed the line or recorded it by hand. */
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("results_course_rank_idx").on(t.courseId, t.status, t.rank, t.position),
    index("results_course_sex_idx").on(t.courseId, t.sex, t.sexRank),
    index("results_course_category_idx").on(t.courseId, t.category, t.categoryRank),
    index("results_event_idx").on(t.eventId),
    index("results_user_idx").on(t.userId).where(sql`${t.userId} IS NOT NULL`),
    index("results_name_trgm_idx").using("gin", sql`immutable_unaccent(lower(${t.name})) gin_trgm_ops`),
    index("results_course_bib_idx").on(t.courseId, t.bib),
    /** One result per member per course. */
    uniqueIndex("results_user_course_idx").on(t.userId, t.courseId).where(sql`${t.userId} IS NOT NULL`),
    check("results_sex", sql`${t.sex} IS NULL OR ${t.sex} IN ('M', 'F')`),
    check("results_time_positive", sql`coalesce(${t.timeMs}, 1) > 0 AND coalesce(${t.netTimeMs}, 1) > 0`),
  ],
);

/** A badge a member earned (finisher of a course, first ultra, 100 km total…), with the result that earned it. */
export const userBadges = pgTable(
  "user_badges",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Stable badge code, e.g. "first-ultra", "races-10", "finisher-course-123". */
    code: varchar("code", { length: 64 }).notNull(),
    resultId: integer("result_id").references(() => results.id, { onDelete: "cascade" }),
    level: smallint("level"),
    awardedAt: timestamp("awarded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("user_badges_user_code_idx").on(t.userId, t.code),
    index("user_badges_awarded_idx").on(t.awardedAt),
  ],
);

export const resultClaimStatus = pgEnum("result_claim_status", RESULT_CLAIM_STATUSES);

/**
 * A member's "c'est moi" on a line whose name is not theirs: it waits for the edition's organiser
 * (or an admin), who approves it — the line becomes the member's (results.user_id) — or refuses it.
 * A claim whose name matches the member's is not kept here: the line is theirs at once. The line's
 * bib and name are kept so that a re-imported file's new line takes the claim over
 * (claims.service.server.ts relinkClaims); a claim whose line is gone goes with it.
 */
export const resultClaims = pgTable(
  "result_claims",
  {
    id: serial("id").primaryKey(),
    resultId: integer("result_id").references(() => results.id, { onDelete: "set null" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: resultClaimStatus("status").notNull().default("pending"),
    /** The line's bib and name when claimed. */
    bib: varchar("bib", { length: 16 }),
    lineName: text("line_name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decidedBy: integer("decided_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    /** One claim waiting per member per course. */
    uniqueIndex("result_claims_pending_idx").on(t.userId, t.courseId).where(sql`${t.status} = 'pending'`),
    index("result_claims_event_idx").on(t.eventId, t.status),
    index("result_claims_status_idx").on(t.status, t.createdAt),
    index("result_claims_result_idx").on(t.resultId),
    index("result_claims_course_idx").on(t.courseId),
    index("result_claims_user_idx").on(t.userId),
  ],
);
