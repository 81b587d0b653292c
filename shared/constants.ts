/** Business constants of the product spec (section 9 and the state lists of section 4). */

export const LOCALES = ["fr", "en"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "fr";

export const VERIFICATION_CODE_LENGTH = 5;
export const MIN_PASSWORD_LENGTH = 8;
export const FREE_POSTER_CREDITS = 1;
export const META_DESCRIPTION_MAX = 140;

/** Sports of the spec, in display order. `parent` groups a specialised sport under a broad one. */
export const SPORTS = [
  { key: "running", parent: null, fr: "Course à pied", en: "Running", slugFr: "course-a-pied", slugEn: "running" },
  { key: "trail", parent: null, fr: "Trail", en: "Trail running", slugFr: "trail", slugEn: "trail-running" },
  { key: "triathlon", parent: null, fr: "Triathlon", en: "Triathlon", slugFr: "triathlon", slugEn: "triathlon" },
  { key: "mtb", parent: null, fr: "VTT", en: "Mountain bike", slugFr: "vtt", slugEn: "mountain-bike" },
  { key: "swimrun", parent: null, fr: "Swimrun", en: "Swimrun", slugFr: "swimrun", slugEn: "swimrun" },
  { key: "cycling", parent: null, fr: "Cyclisme", en: "Cycling", slugFr: "cyclisme", slugEn: "cycling" },
  { key: "ironman", parent: "triathlon", fr: "Ironman", en: "Ironman", slugFr: "ironman", slugEn: "ironman" },
  { key: "marathon", parent: "running", fr: "Marathon", en: "Marathon", slugFr: "marathon", slugEn: "marathon" },
  {
    key: "half_marathon",
    parent: "running",
    fr: "Semi-marathon",
    en: "Half marathon",
    slugFr: "semi-marathon",
    slugEn: "half-marathon",
  },
  {
    key: "short_trail",
    parent: "trail",
    fr: "Trail court",
    en: "Short trail",
    slugFr: "trail-court",
    slugEn: "short-trail",
  },
  {
    key: "ultra_trail",
    parent: "trail",
    fr: "Ultra-trail",
    en: "Ultra trail",
    slugFr: "ultra-trail",
    slugEn: "ultra-trail",
  },
] as const;
export type SportKey = (typeof SPORTS)[number]["key"];
export const SPORT_KEYS = SPORTS.map((s) => s.key) as unknown as readonly [SportKey, ...SportKey[]];

/** Elevation bands in metres of positive gain; `max` is exclusive, null means no upper bound. */
export const ELEVATION_BANDS = [
  { key: "lt100", min: 0, max: 100 },
  { key: "100-500", min: 100, max: 500 },
  { key: "500-1000", min: 500, max: 1000 },
  { key: "1000-2000", min: 1000, max: 2000 },
  { key: "2000-5000", min: 2000, max: 5000 },
  { key: "5000-10000", min: 5000, max: 10000 },
  { key: "gt10000", min: 10000, max: null },
] as const;
export type ElevationBandKey = (typeof ELEVATION_BANDS)[number]["key"];

export function elevationBandOf(metres: number): ElevationBandKey {
  const band = ELEVATION_BANDS.find((b) => metres >= b.min && (b.max === null || metres < b.max));
  return (band ?? ELEVATION_BANDS[0]).key;
}

export const MAP_STYLES = [
  "trace",
  "terrain",
  "roads",
  "colour",
  "simple_relief",
  "detailed_relief",
  "dark_relief",
  "light_contours",
  "blue_contours",
  "green_contours",
  "satellite",
  "relief",
  "city",
] as const;
export type MapStyle = (typeof MAP_STYLES)[number];

export const RANKING_PERIODS = ["all", "1y", "1m", "last_week"] as const;
export type RankingPeriod = (typeof RANKING_PERIODS)[number];
export const RANKING_ORDERS = ["races", "distance", "elevation"] as const;
export type RankingOrder = (typeof RANKING_ORDERS)[number];

export const EVENT_SORTS = ["newest", "oldest"] as const;
export type EventSort = (typeof EVENT_SORTS)[number];

export const QUICK_RANGES = [
  "this_week",
  "next_week",
  "this_month",
  "next_month",
  "previous_week",
  "previous_month",
] as const;
export type QuickRange = (typeof QUICK_RANGES)[number];

export const VIDEO_CATEGORIES = [
  "event",
  "podcast",
  "documentary",
  "film",
  "animation",
  "comedy",
  "clip",
  "music",
  "food",
  "news",
  "live",
  "training",
  "interview",
] as const;
export type VideoCategory = (typeof VIDEO_CATEGORIES)[number];

export const ORDER_STATUSES = ["created", "pending", "failed", "paid", "cancelled", "deleted"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const EMAIL_STATUSES = ["unverified", "pending_change", "verified"] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export const NEWSLETTER_STATUSES = ["subscribed", "unsubscribed"] as const;

export const CONTENT_STATUSES = ["pending", "active", "inactive"] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];

export const CHECK_STATUSES = ["to_check", "checked"] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** Derived from the date and the cancelled/postponed flags, never stored. */
export const EVENT_STATES = ["cancelled", "postponed", "finished", "in_progress", "upcoming"] as const;
export type EventState = (typeof EVENT_STATES)[number];

export const EVENT_SCOPES = ["international", "national", "regional", "local"] as const;
export type EventScope = (typeof EVENT_SCOPES)[number];

export const EVENT_OPTIONS = ["refuelling", "meal", "cloakroom", "showers", "reward"] as const;
export type EventOption = (typeof EVENT_OPTIONS)[number];

export const EVENT_HISTORY_TYPES = [
  "creation",
  "modification",
  "validation",
  "activation",
  "deactivation",
  "modification_request",
  "cancellation",
  "postponement",
  "image_upload",
  "facebook_publication",
  "publication_date",
  "validation_date",
  "organizer_validation",
  "organizer_validation_sent",
  "automatic_copy",
  "search_indexing",
] as const;
export type EventHistoryType = (typeof EVENT_HISTORY_TYPES)[number];

export const COURSE_TYPES = ["race", "relay", "team", "walk", "kids", "virtual"] as const;
export type CourseType = (typeof COURSE_TYPES)[number];

export const RESULT_TYPES = ["general", "men", "women"] as const;

export const IMAGE_KINDS = [
  "event",
  "challenge",
  "article",
  "user",
  "maps",
  "poster",
  "card",
  "header",
  "custom",
] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

export const TOAST_TYPES = ["info", "success", "warning", "error"] as const;
export type ToastType = (typeof TOAST_TYPES)[number];

export const SELECT_COLORS = [
  "blue",
  "orange",
  "yellow",
  "red",
  "purple",
  "amber",
  "lime",
  "green",
  "emerald",
  "teal",
  "cyan",
  "sky",
  "violet",
  "indigo",
  "fuchsia",
  "pink",
  "rose",
] as const;
export type SelectColor = (typeof SELECT_COLORS)[number];

/** The fixed secure-access header every client request carries (spec section 7). */
export const ACCESS_HEADER = "x-dossard-access";
export const ACCESS_HEADER_VALUE = "dossard-web-1";

/** A course's place in a member's season (issue 12): planned, registered, done, did not start. */
export const CALENDAR_STATUSES = ["planned", "registered", "done", "dns"] as const;
export type CalendarStatus = (typeof CALENDAR_STATUSES)[number];

/** What a comment is about: an event (series or edition), the encouragement wall, and content to come. */
export const COMMENT_TARGETS = ["event", "wall", "article", "video", "poster"] as const;
export type CommentTarget = (typeof COMMENT_TARGETS)[number];

/** The mails alerts send: a saved search's digest, registration opening, a followed race's change. */
export const ALERT_KINDS = ["search_digest", "registration_opens", "event_changed"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Ratings' criteria besides the overall mark, each 1–5 and optional. */
export const RATING_CRITERIA = ["course", "organisation", "atmosphere", "value", "difficulty"] as const;
export type RatingCriterion = (typeof RATING_CRITERIA)[number];

/**
 * Ratings needed before the event's JSON-LD carries an aggregateRating (fewer say too little).
 * Here rather than in the ratings' contract: the event page's JSON-LD runs in the browser too,
 * which must not load zod for a number.
 */
export const JSON_LD_MIN_RATINGS = 3;

/** A result line: finished, did not finish, did not start, disqualified. */
export const RESULT_STATUSES = ["finished", "dnf", "dns", "dsq"] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];
/** Where a result comes from: an organiser's file or a member's own record. */
export const RESULT_SOURCES = ["import", "manual"] as const;
export type ResultSource = (typeof RESULT_SOURCES)[number];
export const RESULT_IMPORT_STATUSES = ["pending", "running", "done", "failed"] as const;
export type ResultImportStatus = (typeof RESULT_IMPORT_STATUSES)[number];
