/**
 * How the events manager writes a modification request's values: field labels from the form's
 * own words, and values as a person reads them (yes/no, dates, kilometres, the courses in a line).
 */
import { EVENT_OPTIONS } from "../../../../shared/constants.ts";
import { formatCompactDate } from "../../../../shared/dates.ts";
import { formatDistance, formatDuration, formatElevation, formatMoney } from "../../../../shared/format.ts";
import type { Translate } from "../validate.ts";

/** The editor's label key of each compared field. */
export const FIELD_LABELS: Record<string, string> = {
  name: "info.name",
  sport: "info.sport",
  isCompetition: "info.competition",
  isConnected: "info.connected",
  scope: "info.scope",
  startDate: "info.startDate",
  endDate: "info.endDate",
  dateConfirmed: "info.dateConfirmed",
  communeCode: "place.commune",
  address: "place.address",
  zipcode: "place.zipcode",
  city: "place.city",
  place: "place.place",
  countryCode: "place.country",
  lat: "place.lat",
  lng: "place.lng",
  organizerName: "info.organizer",
  description: "info.description",
  options: "info.options",
  contactEmail: "communication.contactEmail",
  contactPhone: "communication.contactPhone",
  website: "communication.website",
  registrationUrl: "communication.registrationUrl",
  registrationOpensAt: "communication.registrationOpensAt",
  liveTrackingUrl: "communication.liveTrackingUrl",
  facebookUrl: "communication.facebookUrl",
  instagramUrl: "communication.instagramUrl",
  xUrl: "communication.xUrl",
  youtubeUrl: "communication.youtubeUrl",
  vimeoUrl: "communication.vimeoUrl",
  liveVideoUrl: "communication.liveVideoUrl",
  courses: "steps.courses",
};

export function fieldLabel(field: string, t: Translate): string {
  const key = FIELD_LABELS[field];
  return key ? t(`editor:${key}`) : field;
}

const DATE_FIELDS = new Set(["startDate", "endDate", "registrationOpensAt"]);

type CourseValue = {
  name?: string;
  distance?: number | null;
  duration?: number | null;
  elevationGain?: number | null;
  bibQuota?: number | null;
  startPlace?: string | null;
  date?: string;
  startTime?: string | null;
  prices?: { label?: string; price?: number }[];
};

/** One value of a diff, as text; "—" for none. */
export function formatValue(field: string, value: unknown, t: Translate, locale: "fr" | "en"): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return value ? t("editor:form.yes") : t("editor:form.no");
  if (field === "sport" && typeof value === "string") return t(`sports:${value}`);
  if (field === "scope" && typeof value === "string") return t(`events:scope.${value}`);
  if (DATE_FIELDS.has(field) && typeof value === "string") return formatCompactDate(value, locale);
  if (field === "description" && typeof value === "string") {
    return value
      .replace(/<[^>]*>/g, " ")
      .replace(/\s+/g, " ")
      .trim();
  }
  if (field === "options" && value && typeof value === "object") {
    const on = EVENT_OPTIONS.filter((o) => (value as Record<string, unknown>)[o]);
    return on.length ? on.map((o) => t(`event:options.${o}`)).join(", ") : "—";
  }
  if (field === "courses" && Array.isArray(value)) {
    return (value as CourseValue[])
      .map((course) => {
        const parts = [course.name ?? ""];
        if (course.distance) parts.push(formatDistance(course.distance, locale));
        if (course.duration) parts.push(formatDuration(course.duration, locale));
        if (course.elevationGain) parts.push(formatElevation(course.elevationGain, locale));
        if (course.bibQuota) parts.push(t("editor:admin.bibs", { count: course.bibQuota }));
        if (course.startPlace) parts.push(course.startPlace);
        if (course.date)
          parts.push(formatCompactDate(course.date, locale) + (course.startTime ? ` ${course.startTime}` : ""));
        for (const price of course.prices ?? []) {
          if (typeof price.price === "number")
            parts.push(`${price.label ?? ""} ${formatMoney(price.price, locale)}`.trim());
        }
        return parts.filter(Boolean).join(" · ");
      })
      .join("\n");
  }
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
