/**
 * The browser's checks of each step, with the contract's schemas (the same rules the server
 * applies) plus what only the typed text can tell (a distance that is not a number). Errors are
 * keyed by the contract's field paths and worded for a person, in the page's language.
 */
import type { z } from "zod";
import { errorCatalogue, isErrorCode } from "../../../shared/api-error.ts";
import { formatCompactDate } from "../../../shared/dates.ts";
import { formatNumber } from "../../../shared/format.ts";
import {
  courseFormSchema,
  eventCommunicationSchema,
  eventFormSchema,
  eventInfoSchema,
  periodsOverlap,
} from "../editor.contract.ts";
import {
  COUNT_FIELDS,
  type CourseDraft,
  communicationPayload,
  coursePayload,
  type EventDraft,
  infoPayload,
  parseDecimal,
  type Step,
  toPayload,
} from "./form-model.ts";

export type FieldErrors = Record<string, string>;
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Fields whose format error deserves its own words. */
const FORMAT_MESSAGES: Record<string, string> = {
  contactPhone: "editor:errors.phone",
  startTime: "editor:errors.time",
  communeCode: "editor:errors.commune",
  countryCode: "editor:errors.invalid",
};

/** One zod issue in words: its error code's message, else a message for its kind. */
export function issueMessage(issue: z.core.$ZodIssue, t: Translate, locale: string): string {
  const code = issue.message;
  const leaf = String(issue.path[issue.path.length - 1] ?? "");
  if (isErrorCode(code) && code !== "BAD_REQUEST" && code !== "INVALID_FIELD") {
    return t(`common:${errorCatalogue[code].key}`);
  }
  if (FORMAT_MESSAGES[leaf]) return t(FORMAT_MESSAGES[leaf]);
  switch (issue.code) {
    case "too_big":
      return issue.origin === "string"
        ? t("editor:errors.tooLong", { max: formatNumber(Number(issue.maximum), locale) })
        : issue.origin === "array"
          ? t("editor:errors.tooMany", { max: formatNumber(Number(issue.maximum), locale) })
          : t("editor:errors.tooBig", { max: formatNumber(Number(issue.maximum), locale) });
    case "too_small":
      return issue.origin === "string"
        ? t("common:errors.fieldRequired")
        : t("editor:errors.tooSmall", { min: formatNumber(Number(issue.minimum), locale) });
    case "invalid_type":
      if (issue.expected === "int") return t("editor:errors.integer");
      if (issue.expected === "number") return t("editor:errors.number");
      return t("common:errors.fieldRequired");
    case "invalid_value":
      return t("common:errors.fieldRequired");
    default:
      return t("editor:errors.invalid");
  }
}

function collect(
  errors: FieldErrors,
  issues: readonly z.core.$ZodIssue[],
  t: Translate,
  locale: string,
  prefix = "",
): void {
  for (const issue of issues) {
    const path = prefix + issue.path.join(".");
    if (!errors[path]) errors[path] = issueMessage(issue, t, locale);
  }
}

/** Step 1: information, with the whole form's rules about dates and the certification. */
export function validateInfo(draft: EventDraft, t: Translate, locale: string): FieldErrors {
  const errors: FieldErrors = {};
  const parsed = eventInfoSchema.safeParse(infoPayload(draft));
  if (!parsed.success) collect(errors, parsed.error.issues, t, locale);
  if (draft.startDate && draft.endDate && draft.endDate < draft.startDate && !errors.endDate) {
    errors.endDate = t("common:errors.dateRangeInvalid");
  }
  if (draft.dateConfirmed && !draft.certified) errors.certified = t("common:errors.certificationRequired");
  return errors;
}

/** Step 2: communication. */
export function validateCommunication(draft: EventDraft, t: Translate, locale: string): FieldErrors {
  const errors: FieldErrors = {};
  const parsed = eventCommunicationSchema.safeParse(communicationPayload(draft));
  if (!parsed.success) collect(errors, parsed.error.issues, t, locale);
  return errors;
}

/** One course's errors, keyed "courses.<index>.<field>". */
export function validateCourse(
  course: CourseDraft,
  index: number,
  draft: Pick<EventDraft, "startDate" | "endDate">,
  t: Translate,
  locale: string,
): FieldErrors {
  const prefix = `courses.${index}.`;
  const errors: FieldErrors = {};
  const own: FieldErrors = {};
  // What only the text tells: a number that is not one.
  if (course.measure === "distance" && Number.isNaN(parseDecimal(course.distance) ?? 0)) {
    own.distance = t("editor:errors.decimal");
  }
  for (const field of COUNT_FIELDS) {
    if (course[field].trim() && !/^[\d\s\u00a0\u202f]+$/.test(course[field])) own[field] = t("editor:errors.integer");
  }
  course.prices.forEach((price, i) => {
    if (price.price.trim() && Number.isNaN(parseDecimal(price.price) ?? 0)) {
      own[`prices.${i}.price`] = t("editor:errors.decimal");
    }
  });

  const parsed = courseFormSchema.safeParse(coursePayload(course));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      let path = issue.path.join(".");
      // The contract files "distance or duration" under distance; a timed race shows it on its duration.
      if (path === "distance" && course.measure === "duration") path = "duration";
      if (issue.message === "PRICE_PERIODS_OVERLAP") continue; // worded below, naming the other period
      if (!own[path]) own[path] = issueMessage(issue, t, locale);
    }
  }
  course.prices.forEach((price, i) => {
    const other = course.prices.findIndex(
      (p, j) =>
        j < i &&
        periodsOverlap(
          { label: p.label, startsOn: p.startsOn, endsOn: p.endsOn, price: 0 },
          { label: price.label, startsOn: price.startsOn, endsOn: price.endsOn, price: 0 },
        ),
    );
    if (other >= 0 && !own[`prices.${i}.startsOn`]) {
      own[`prices.${i}.startsOn`] = t("editor:courses.prices.overlap", {
        other: course.prices[other]?.label.trim() || t("editor:courses.prices.periodNumber", { n: other + 1 }),
      });
    }
  });
  if (course.date && draft.startDate && draft.endDate && !own.date) {
    if (course.date < draft.startDate || course.date > draft.endDate) {
      own.date = t("editor:courses.dateOutside", {
        start: formatCompactDate(draft.startDate, locale),
        end: formatCompactDate(draft.endDate, locale),
      });
    }
  }
  for (const [key, message] of Object.entries(own)) errors[prefix + key] = message;
  return errors;
}

/** Step 3: at least one course, each complete. */
export function validateCourses(draft: EventDraft, t: Translate, locale: string): FieldErrors {
  if (draft.courses.length === 0) return { courses: t("common:errors.cannotDeleteAllCourses") };
  return Object.assign({}, ...draft.courses.map((course, i) => validateCourse(course, i, draft, t, locale)));
}

export function validateStep(step: Step, draft: EventDraft, t: Translate, locale: string): FieldErrors {
  switch (step) {
    case "info":
      return validateInfo(draft, t, locale);
    case "communication":
      return validateCommunication(draft, t, locale);
    case "courses":
      return validateCourses(draft, t, locale);
    case "visuals":
      return {};
  }
}

/** The whole form before saving: every step, then the contract's whole-form schema as a safety net. */
export function validateAll(draft: EventDraft, t: Translate, locale: string): FieldErrors {
  const errors = {
    ...validateInfo(draft, t, locale),
    ...validateCommunication(draft, t, locale),
    ...validateCourses(draft, t, locale),
  };
  if (Object.keys(errors).length) return errors;
  const parsed = eventFormSchema.safeParse(toPayload(draft));
  if (!parsed.success) collect(errors, parsed.error.issues, t, locale);
  return errors;
}

/** What a course still lacks, as the names of its fields in error (for the card's hint). */
export type MissingField =
  | "name"
  | "type"
  | "distance"
  | "duration"
  | "date"
  | "startTime"
  | "prices"
  | "numbers"
  | "text";

export function courseMissing(
  course: CourseDraft,
  index: number,
  draft: Pick<EventDraft, "startDate" | "endDate">,
  t: Translate,
  locale: string,
): MissingField[] {
  const errors = validateCourse(course, index, draft, t, locale);
  const prefix = `courses.${index}.`;
  const missing = new Set<MissingField>();
  for (const path of Object.keys(errors)) {
    const field = path.slice(prefix.length).split(".")[0] ?? "";
    if (field === "name" || field === "type" || field === "distance" || field === "duration" || field === "date") {
      missing.add(field);
    } else if (field === "startTime") missing.add("startTime");
    else if (field === "prices") missing.add("prices");
    else if ((COUNT_FIELDS as readonly string[]).includes(field)) missing.add("numbers");
    else missing.add("text");
  }
  return [...missing];
}
