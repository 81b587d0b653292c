/**
 * The error catalogue of spec section 8: a stable code per user-facing message, the HTTP status
 * it answers with, and its i18n key in the `common` namespace. The API answers every error with
 * `{ error: { code, message, field? } }`, the message translated into the caller's language.
 *
 * Status choices: an anonymous caller on a member route gets 401 LOGIN_REQUIRED (the page offers
 * to sign in); a signed-in member on a route above their role gets 403 FORBIDDEN, and the spec
 * sends the browser to /login on any 403. Signed-in members missing a step (email verification,
 * account confirmation) get 409, and a missing access header gets 400, so neither bounces a
 * member to the login page. Bad credentials and an expired grant are 401: the form shows them.
 */
import { z } from "zod";
import enCommon from "../locales/en/common.json";
import frCommon from "../locales/fr/common.json";
import type { Locale } from "./constants.ts";

type ErrorKey = `errors.${keyof typeof frCommon.errors & keyof typeof enCommon.errors}`;

interface CatalogueEntry {
  readonly status: number;
  /** i18n key in the `common` namespace. */
  readonly key: ErrorKey;
  /** The form field the error is about when it is always the same one. */
  readonly field?: string;
}

export const errorCatalogue = {
  GENERIC: { status: 500, key: "errors.generic" },
  NOT_FOUND: { status: 404, key: "errors.notFound" },
  LOGIN_REQUIRED: { status: 401, key: "errors.loginRequired" },
  FORBIDDEN: { status: 403, key: "errors.forbidden" },
  TOO_MANY_ATTEMPTS: { status: 429, key: "errors.tooManyAttempts" },
  /** Many wrong passwords for one account from many places: devices it was used on still get in. */
  ACCOUNT_LOGIN_PAUSED: { status: 429, key: "errors.accountLoginPaused" },
  INVALID_CODE: { status: 400, key: "errors.invalidCode", field: "code" },
  CODE_EXPIRED: { status: 400, key: "errors.codeExpired", field: "code" },
  FIELD_REQUIRED: { status: 400, key: "errors.fieldRequired" },
  TERMS_REQUIRED: { status: 400, key: "errors.termsRequired", field: "terms" },
  FILE_TYPE_INVALID: { status: 415, key: "errors.fileTypeInvalid", field: "file" },
  WRONG_PASSWORD: { status: 400, key: "errors.wrongPassword", field: "currentPassword" },
  PRICE_PERIODS_OVERLAP: { status: 400, key: "errors.pricePeriodsOverlap" },
  CERTIFICATION_REQUIRED: { status: 400, key: "errors.certificationRequired", field: "certified" },
  DATE_RANGE_INVALID: { status: 400, key: "errors.dateRangeInvalid", field: "endDate" },
  URL_INVALID: { status: 400, key: "errors.urlInvalid" },
  DISTANCE_OR_DURATION_REQUIRED: { status: 400, key: "errors.distanceOrDurationRequired" },
  EVENT_NOT_SAVED: { status: 409, key: "errors.eventNotSaved" },
  GPX_INVALID: { status: 400, key: "errors.gpxInvalid", field: "file" },
  GPX_EMPTY: { status: 400, key: "errors.gpxEmpty", field: "file" },
  /** An <ele> of a point that is not a number (a decimal comma is read). */
  GPX_ELEVATION_INVALID: { status: 400, key: "errors.gpxElevationInvalid", field: "file" },
  /** Over TRACK_MAX_BYTES or TRACK_MAX_POINTS (features/tracks/track-processing.ts); the message says both. */
  GPX_TOO_LARGE: { status: 413, key: "errors.gpxTooLarge", field: "file" },
  /** A member's upload quota for the hour is spent (tracks, photos). */
  TOO_MANY_UPLOADS: { status: 429, key: "errors.tooManyUploads" },
  /** The workers that process uploads have a full queue, or a task ran out of time. */
  SERVER_BUSY: { status: 503, key: "errors.serverBusy" },
  NO_ORGANIZER_CONTACT: { status: 409, key: "errors.noOrganizerContact" },
  EMAIL_VERIFICATION_REQUIRED: { status: 409, key: "errors.emailVerificationRequired" },
  ACCOUNT_CONFIRMATION_REQUIRED: { status: 409, key: "errors.accountConfirmationRequired" },
  INVALID_TOKEN: { status: 400, key: "errors.invalidToken" },
  INVALID_GRANT: { status: 401, key: "errors.invalidGrant" },
  SETUP_LINK_INVALID: { status: 400, key: "errors.setupLinkInvalid" },
  SETUP_DONE: { status: 410, key: "errors.setupDone" },
  BAD_LOGIN: { status: 401, key: "errors.badLogin" },
  OAUTH_FAILURE: { status: 400, key: "errors.oauthFailure" },
  OAUTH_NO_EMAIL: { status: 400, key: "errors.oauthNoEmail" },
  IDENTITY_ALREADY_LINKED: { status: 409, key: "errors.identityAlreadyLinked" },
  EMAIL_ALREADY_USED: { status: 409, key: "errors.emailAlreadyUsed", field: "email" },
  EMAIL_ALREADY_SENT: { status: 429, key: "errors.emailAlreadySent" },
  GEOLOCATION_NOT_ALLOWED: { status: 400, key: "errors.geolocationNotAllowed" },
  FILE_TOO_HEAVY: { status: 413, key: "errors.fileTooHeavy" },
  FILE_NOT_FOUND: { status: 404, key: "errors.fileNotFound" },
  ORDER_NOT_FOUND: { status: 404, key: "errors.orderNotFound" },
  ITEM_NOT_FOUND: { status: 404, key: "errors.itemNotFound" },
  NO_POSTER_CREDIT: { status: 402, key: "errors.noPosterCredit" },
  POSTER_EDIT_LIMIT: { status: 409, key: "errors.posterEditLimit" },
  /** A poster's map data source (tiles, elevation) failed or did not answer in time (decision 037). */
  POSTER_MAP_UNAVAILABLE: { status: 503, key: "errors.posterMapUnavailable" },
  /** The site has no Stripe keys, or Stripe could not be reached (features/orders). */
  PAYMENT_UNAVAILABLE: { status: 503, key: "errors.paymentUnavailable" },
  /** A product listed as "coming soon". */
  PRODUCT_UNAVAILABLE: { status: 409, key: "errors.productUnavailable" },
  /** The order's status does not allow this (order-status.ts): paid already, deleted… */
  ORDER_STATUS_CONFLICT: { status: 409, key: "errors.orderStatusConflict" },
  /** A receipt is only made for a paid order. */
  RECEIPT_NOT_AVAILABLE: { status: 409, key: "errors.receiptNotAvailable" },
  /** A payment webhook whose signature does not match the endpoint's secret. */
  WEBHOOK_SIGNATURE_INVALID: { status: 400, key: "errors.webhookSignatureInvalid" },
  CANNOT_DELETE_ALL_COURSES: { status: 409, key: "errors.cannotDeleteAllCourses" },
  NO_RESULTS: { status: 404, key: "errors.noResults" },
  PASSWORDS_NOT_IDENTICAL: { status: 400, key: "errors.passwordsNotIdentical", field: "passwordConfirmation" },
  PASSWORD_TOO_SHORT: { status: 400, key: "errors.passwordTooShort", field: "password" },
  EMAIL_INVALID: { status: 400, key: "errors.emailInvalid", field: "email" },
  EMAIL_EMPTY: { status: 400, key: "errors.emailEmpty", field: "email" },
  MISSING_ACCESS_HEADER: { status: 400, key: "errors.missingAccessHeader" },
  /** A write outside /api that another site asked for (server/cross-site.server.ts, crossSiteGuard). */
  CROSS_SITE_REQUEST: { status: 403, key: "errors.crossSiteRequest" },
  /** "Alert me" on a search without any filter: every new race would match. */
  ALERT_NEEDS_FILTER: { status: 400, key: "errors.alertNeedsFilter", field: "query" },
  /** A member keeps at most MAX_SAVED_SEARCHES saved searches (features/alerts). */
  ALERT_LIMIT_REACHED: { status: 409, key: "errors.alertLimitReached" },
  BAD_REQUEST: { status: 400, key: "errors.badRequest" },
  /** A request field failed validation; the message names the field. */
  INVALID_FIELD: { status: 400, key: "errors.invalidField" },
  /** Rating or commenting an edition that has not taken place yet (features/ratings, features/comments). */
  EVENT_NOT_YET_HELD: { status: 409, key: "errors.eventNotYetHeld" },
  /** A member reports the same comment twice. */
  ALREADY_REPORTED: { status: 409, key: "errors.alreadyReported" },
  COMMENT_TOO_LONG: { status: 400, key: "errors.commentTooLong", field: "body" },
  /** A results file that cannot be read or has a bad cell; the answer's message names the line and column. */
  RESULTS_FILE_INVALID: { status: 400, key: "errors.resultsFileInvalid", field: "file" },
  /** A results file over a limit (size, lines, columns, a cell, an XLSX unpacked); the answer's message says which. */
  RESULTS_FILE_TOO_LARGE: { status: 413, key: "errors.resultsFileTooLarge", field: "file" },
  /** An organiser sends a results file while their previous one is still being read. */
  RESULTS_PARSE_IN_PROGRESS: { status: 429, key: "errors.resultsParseInProgress" },
  /** Importing into a course that already has imported results, without `replace: true`. */
  RESULTS_ALREADY_IMPORTED: { status: 409, key: "errors.resultsAlreadyImported", field: "replace" },
  /** "C'est moi" on a results line another member already claimed (features/results). */
  RESULT_ALREADY_CLAIMED: { status: 409, key: "errors.resultAlreadyClaimed" },
  /** One result per member per course: they already claimed or recorded one there. */
  RESULT_ALREADY_RECORDED: { status: 409, key: "errors.resultAlreadyRecorded" },
  /** A member's claim on another line of the course waits for the organiser (features/results). */
  RESULT_CLAIM_PENDING: { status: 409, key: "errors.resultClaimPending" },
  /** The organiser refused the member's claim on this line. */
  RESULT_CLAIM_REFUSED: { status: 409, key: "errors.resultClaimRefused" },
  /** Deciding on a claim that was decided already. */
  RESULT_CLAIM_DECIDED: { status: 409, key: "errors.resultClaimDecided" },
  /** Recording a result by hand on a course whose results were imported: claim the line instead. */
  COURSE_HAS_RESULTS: { status: 409, key: "errors.courseHasResults", field: "courseId" },
  /** Recording a result for an edition that has not taken place yet. */
  RESULT_EVENT_NOT_HELD: { status: 409, key: "errors.resultEventNotHeld", field: "courseId" },
  /** An activity file (GPX, TCX, FIT) that cannot be read (features/activities). */
  ACTIVITY_FILE_INVALID: { status: 400, key: "errors.activityFileInvalid", field: "file" },
  ACTIVITY_FILE_EMPTY: { status: 400, key: "errors.activityFileEmpty", field: "file" },
  ACTIVITY_FILE_TOO_LARGE: { status: 413, key: "errors.activityFileTooLarge", field: "file" },
  /** More files in one upload than ACTIVITY_FILES_PER_UPLOAD. */
  TOO_MANY_FILES: { status: 413, key: "errors.tooManyFiles", field: "file" },
  /** An activity file without any time: the member says on which day it was (issue 26 item 5). */
  ACTIVITY_DATE_REQUIRED: { status: 400, key: "errors.activityDateRequired", field: "date" },
  /** An activity's day that is no day, or one still to come. */
  ACTIVITY_DATE_INVALID: { status: 400, key: "errors.activityDateInvalid", field: "date" },
  /** Strava is not set up on this site (no client id). */
  STRAVA_UNAVAILABLE: { status: 503, key: "errors.stravaUnavailable" },
  STRAVA_NOT_CONNECTED: { status: 409, key: "errors.stravaNotConnected" },
  /** The member unticked "view data about your private activities" on Strava's page. */
  STRAVA_SCOPE_MISSING: { status: 400, key: "errors.stravaScopeMissing" },
  /** Strava did not answer as it should (down, refused the code). */
  STRAVA_FAILURE: { status: 502, key: "errors.stravaFailure" },
  /** Making a result needs the activity linked to a course first. */
  ACTIVITY_NOT_LINKED: { status: 409, key: "errors.activityNotLinked" },
  /** A logged message that carried a secret (a code, a reset or unsubscribe link), never stored: it cannot be sent again. */
  MAIL_RESEND_SECRET: { status: 409, key: "errors.mailResendSecret" },
  /** An admin removing their own admin role, or disabling or deleting their own account (features/accounts). */
  ADMIN_OWN_ACCOUNT: { status: 409, key: "errors.adminOwnAccount" },
  /** Demoting, disabling or deleting the last active admin. */
  LAST_ADMIN: { status: 409, key: "errors.lastAdmin" },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof errorCatalogue;
export const ERROR_CODES = Object.keys(errorCatalogue) as [ErrorCode, ...ErrorCode[]];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(errorCatalogue, value);
}

/** Spec sections 6 and 8: a 403 sends the user to /login, replacing the current location. */
export function redirectsToLogin(status: number): boolean {
  return status === 403;
}

const MESSAGES = { fr: frCommon.errors, en: enCommon.errors } as const;

/** The last named part of a field path ("courses.0.name" → "name"). */
export function fieldLeaf(path: string | readonly PropertyKey[] | undefined): string {
  const parts = typeof path === "string" ? path.split(/[./]/) : (path ?? []).map(String);
  return [...parts].reverse().find((part) => part !== "" && !/^\d+$/.test(part)) ?? "";
}

export type FieldWords = Partial<Record<"required" | "format" | "invalid" | "choice", string>>;

/** A field's own words for its rules ("Indiquez votre prénom."), when it has some. */
export function fieldWords(locale: Locale, field: string): FieldWords {
  const fields = (locale === "en" ? enCommon : frCommon).validation.fields as Record<string, FieldWords>;
  return Object.hasOwn(fields, field) ? (fields[field] as FieldWords) : {};
}

/**
 * The translated message of a code. BAD_REQUEST and INVALID_FIELD about a field say what is wrong
 * with it in the field's own words when it has some ("Choisissez un pays de la liste."), else
 * "Cette valeur n'est pas valable." — never the field's internal name.
 */
export function apiErrorMessage(code: ErrorCode, locale: Locale = "fr", field?: string): string {
  const messages: Record<string, string> = MESSAGES[locale] ?? MESSAGES.fr;
  if (field && (code === "BAD_REQUEST" || code === "INVALID_FIELD")) {
    const own = fieldWords(locale, fieldLeaf(field));
    return own.invalid ?? own.format ?? (messages.invalidField as string);
  }
  return messages[errorCatalogue[code].key.slice("errors.".length)] as string;
}

const fieldErrorSchema = z.object({ field: z.string(), code: z.enum(ERROR_CODES), message: z.string() });
export type ApiFieldError = z.infer<typeof fieldErrorSchema>;

export const apiErrorBodySchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    field: z.string().optional(),
    /** Every failing field of a form, when more than one failed. */
    fields: z.array(fieldErrorSchema).optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

export interface ApiErrorOptions {
  /** The request field concerned; the catalogue's own field when omitted. */
  field?: string;
  /** Overrides the catalogue status (for example a 4xx passed through from Fastify). */
  status?: number;
  /** Extra data for logs; never sent to the client. */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * The mark of an ApiError, the same in every copy of this module: the built server bundle has its
 * own copy of this class beside the sources' (the services'), so `instanceof` fails across them.
 */
const API_ERROR: unique symbol = Symbol.for("dossard.ApiError");

/**
 * An error a service throws for the route layer to answer with its code, status and message.
 * Recognised by `isApiError` (its mark and code), never by `instanceof`.
 */
export class ApiError extends Error {
  override name = "ApiError";
  readonly [API_ERROR] = true;
  readonly code: ErrorCode;
  readonly status: number;
  readonly field?: string;
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    // The English text makes server logs readable; clients get the translated body.
    super(`${code}: ${apiErrorMessage(code, "en", options.field)}`, { cause: options.cause });
    const entry: CatalogueEntry = errorCatalogue[code];
    this.code = code;
    this.status = options.status ?? entry.status;
    this.field = options.field ?? entry.field;
    this.details = options.details;
  }

  /** i18n key of the message, in the `common` namespace. */
  get i18nKey(): ErrorKey {
    return errorCatalogue[this.code].key;
  }

  /** The JSON body the API answers with. */
  toBody(locale: Locale = "fr"): ApiErrorBody {
    return apiErrorBody(this.code, locale, this.field);
  }

  /** Rebuilds an error from an API response body (client side); GENERIC when the body is not one. */
  static fromBody(body: unknown, status?: number): ApiError {
    const parsed = apiErrorBodySchema.safeParse(body);
    if (!parsed.success) return new ApiError("GENERIC", status ? { status } : {});
    const { code, field } = parsed.data.error;
    return new ApiError(code, { field, ...(status ? { status } : {}) });
  }
}

export function apiErrorBody(code: ErrorCode, locale: Locale = "fr", field?: string): ApiErrorBody {
  return { error: { code, message: apiErrorMessage(code, locale, field), ...(field ? { field } : {}) } };
}

/**
 * Whether a thrown value is an ApiError of any copy of this module (the page bundle's or the
 * sources'): its mark and a code of the catalogue. Use it instead of `instanceof ApiError`.
 */
export function isApiError(error: unknown): error is ApiError {
  if (typeof error !== "object" || error === null) return false;
  const candidate = error as { [API_ERROR]?: unknown; code?: unknown; status?: unknown };
  return candidate[API_ERROR] === true && isErrorCode(candidate.code) && typeof candidate.status === "number";
}

/** Any thrown value as an ApiError: itself when it is one, GENERIC (500) otherwise. */
export function toApiError(error: unknown): ApiError {
  return isApiError(error) ? error : new ApiError("GENERIC", { cause: error });
}
