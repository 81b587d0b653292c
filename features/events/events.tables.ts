import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import {
  CHECK_STATUSES,
  CONTENT_STATUSES,
  COURSE_TYPES,
  EVENT_HISTORY_TYPES,
  EVENT_SCOPES,
} from "../../shared/constants.ts";
import { communes, countries, departments, regions } from "../geo/geo.tables.ts";
import type { TrackPoint } from "../maps/geometry.ts";
import { sports } from "../sports/sports.tables.ts";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const contentStatus = pgEnum("content_status", CONTENT_STATUSES);
export const checkStatus = pgEnum("check_status", CHECK_STATUSES);
export const eventScope = pgEnum("event_scope", EVENT_SCOPES);
export const courseType = pgEnum("course_type", COURSE_TYPES);
export const eventHistoryType = pgEnum("event_history_type", EVENT_HISTORY_TYPES);

/** A race series ("Marathon de Paris"): each yearly edition is an event of the group. */
export const eventGroups = pgTable("event_groups", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type EventOptions = {
  refuelling?: boolean;
  meal?: boolean;
  cloakroom?: boolean;
  showers?: boolean;
  reward?: boolean;
};

export const events = pgTable(
  "events",
  {
    id: serial("id").primaryKey(),
    slug: text("slug").notNull(),
    groupId: integer("group_id").references(() => eventGroups.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    sportId: integer("sport_id")
      .notNull()
      .references(() => sports.id),
    description: text("description"),
    organizerName: text("organizer_name"),
    isCompetition: boolean("is_competition").notNull().default(true),
    /** The lister declared they belong to the organising team. */
    isOwner: boolean("is_owner").notNull().default(false),
    /** A connected (virtual) race, run anywhere. */
    isConnected: boolean("is_connected").notNull().default(false),
    contactEmail: text("contact_email"),
    contactPhone: text("contact_phone"),
    options: jsonb("options").$type<EventOptions>().notNull().default({}),
    website: text("website"),
    registrationUrl: text("registration_url"),
    registrationOpensAt: timestamp("registration_opens_at", { withTimezone: true }),
    /** Members' ratings of this edition (features/ratings): kept in step with each rating, in its transaction. */
    ratingCount: integer("rating_count").notNull().default(0),
    ratingAverage: doublePrecision("rating_average"),
    liveTrackingUrl: text("live_tracking_url"),
    facebookUrl: text("facebook_url"),
    instagramUrl: text("instagram_url"),
    xUrl: text("x_url"),
    youtubeUrl: text("youtube_url"),
    vimeoUrl: text("vimeo_url"),
    liveVideoUrl: text("live_video_url"),
    address: text("address"),
    zipcode: varchar("zipcode", { length: 10 }),
    city: text("city"),
    place: text("place"),
    countryCode: varchar("country_code", { length: 2 })
      .notNull()
      .default("FR")
      .references(() => countries.code),
    communeCode: varchar("commune_code", { length: 5 }).references(() => communes.code),
    departmentCode: varchar("department_code", { length: 3 }).references(() => departments.code),
    regionCode: varchar("region_code", { length: 3 }).references(() => regions.code),
    lat: doublePrecision("lat"),
    lng: doublePrecision("lng"),
    /** First day of the event (local date) and its last day for multi-day events. */
    startDate: date("start_date").notNull(),
    endDate: date("end_date").notNull(),
    /** The date first announced, kept when the event is postponed. */
    originalDate: date("original_date"),
    cancelled: boolean("cancelled").notNull().default(false),
    postponed: boolean("postponed").notNull().default(false),
    scope: eventScope("scope").notNull().default("local"),
    status: contentStatus("status").notNull().default("pending"),
    checkStatus: checkStatus("check_status").notNull().default("to_check"),
    dateConfirmed: boolean("date_confirmed").notNull().default(false),
    /** The member who listed it (null for imported and demo events). */
    ownerId: integer("owner_id"),
    coverImage: text("cover_image"),
    headerImage: text("header_image"),
    /** Largest positive elevation and distance over its courses, kept for filtering and sorting. */
    maxElevation: integer("max_elevation"),
    minDistance: integer("min_distance"),
    maxDistance: integer("max_distance"),
    /**
     * Elevation bands of its courses: bit i set when a course's elevation gain falls in
     * ELEVATION_BANDS[i]. Kept by triggers on courses (migration 0007) for the search facets.
     */
    elevationBands: smallint("elevation_bands").notNull().default(0),
    searchVector: tsvector("search_vector").generatedAlwaysAs(
      sql`setweight(to_tsvector('fr_unaccent', coalesce("name", '')), 'A') || setweight(to_tsvector('fr_unaccent', coalesce("city", '') || ' ' || coalesce("place", '') || ' ' || coalesce("organizer_name", '')), 'B') || setweight(to_tsvector('fr_unaccent', coalesce("description", '')), 'C')`,
    ),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("events_slug_idx").on(t.slug),
    index("events_start_date_idx").on(t.startDate),
    index("events_sport_date_idx").on(t.sportId, t.startDate),
    index("events_region_date_idx").on(t.regionCode, t.startDate),
    index("events_department_date_idx").on(t.departmentCode, t.startDate),
    index("events_group_idx").on(t.groupId),
    index("events_owner_idx").on(t.ownerId),
    index("events_status_idx").on(t.status, t.checkStatus),
    index("events_search_idx").using("gin", t.searchVector),
    index("events_name_trgm_idx").using("gin", sql`immutable_unaccent(lower(${t.name})) gin_trgm_ops`),
    index("events_city_trgm_idx").using("gin", sql`immutable_unaccent(lower(${t.city})) gin_trgm_ops`),
    index("events_earth_idx").using("gist", sql`ll_to_earth(${t.lat}, ${t.lng})`),
  ],
);

/**
 * Addresses an event had before it was renamed (issue 26 item 6): its pages answer them with a 301
 * to the current one. Filled by a trigger on events.slug (migration 0022), whatever renames it —
 * the editor, an admin, a script; an event given one of its former slugs again takes it back. The
 * editor never gives a new slug that is another event's former one.
 */
export const eventFormerSlugs = pgTable(
  "event_former_slugs",
  {
    slug: text("slug").primaryKey(),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("event_former_slugs_event_idx").on(t.eventId)],
);

export type CoursePoints = { itra?: number; utmb?: string };

/** A race within an event: distance or duration, elevation, start, quota, prices. */
export const courses = pgTable(
  "courses",
  {
    id: serial("id").primaryKey(),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    type: courseType("type").notNull().default("race"),
    /** Metres; null for a timed race. */
    distance: integer("distance"),
    /** Seconds; set for timed races (6 h, 24 h), otherwise null. */
    duration: integer("duration"),
    elevationGain: integer("elevation_gain"),
    bibQuota: integer("bib_quota"),
    description: text("description"),
    startAt: timestamp("start_at", { withTimezone: true }),
    startPlace: text("start_place"),
    finishPlace: text("finish_place"),
    refuellingPoints: integer("refuelling_points"),
    mandatoryEquipment: text("mandatory_equipment"),
    minAge: integer("min_age"),
    itraPoints: integer("itra_points"),
    utmbIndex: varchar("utmb_index", { length: 16 }),
    challenge: text("challenge"),
    complete: boolean("complete").notNull().default(false),
    position: integer("position").notNull().default(0),
  },
  (t) => [index("courses_event_idx").on(t.eventId), index("courses_distance_idx").on(t.distance)],
);

export const coursePrices = pgTable(
  "course_prices",
  {
    id: serial("id").primaryKey(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    startsOn: date("starts_on"),
    endsOn: date("ends_on"),
    /** Euros, two decimals. */
    price: numeric("price", { precision: 8, scale: 2 }).notNull(),
  },
  (t) => [index("course_prices_course_idx").on(t.courseId)],
);

export type { TrackPoint };

export const tracks = pgTable(
  "tracks",
  {
    id: serial("id").primaryKey(),
    courseId: integer("course_id").references(() => courses.id, { onDelete: "cascade" }),
    /** Who uploaded it: a track not yet attached to a course belongs to its uploader. */
    uploadedBy: integer("uploaded_by"),
    name: text("name").notNull(),
    /** Simplified line as [lng, lat, ele] points. */
    points: jsonb("points").$type<TrackPoint[]>().notNull(),
    /**
     * Indexes in `points` where a new segment starts (the GPX file's <trkseg>s); empty for one
     * segment. No distance, line or profile is drawn across a break (migration 0019).
     */
    breaks: jsonb("breaks").$type<number[]>().notNull().default([]),
    distance: integer("distance").notNull(),
    /** Metres; null when the file had no elevation (unknown, not 0). */
    elevationGain: integer("elevation_gain"),
    elevationLoss: integer("elevation_loss"),
    minElevation: integer("min_elevation"),
    maxElevation: integer("max_elevation"),
    /** [distance in m, elevation in m] samples for charts. */
    profile: jsonb("profile").$type<[number, number][]>().notNull().default([]),
    startLat: doublePrecision("start_lat"),
    startLng: doublePrecision("start_lng"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("tracks_course_idx").on(t.courseId)],
);

export const eventImages = pgTable(
  "event_images",
  {
    id: serial("id").primaryKey(),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    width: integer("width"),
    height: integer("height"),
    caption: text("caption"),
    position: integer("position").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("event_images_event_idx").on(t.eventId)],
);

export const eventHistory = pgTable(
  "event_history",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    type: eventHistoryType("type").notNull(),
    /** Free-form details: changed fields, previous date, who asked. */
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    userId: integer("user_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("event_history_event_idx").on(t.eventId, t.createdAt)],
);
