/**
 * What one line of an event's history says changed, in words: the fields of a modification with
 * the editor's own labels (features/editor's diff-format), the dates of a postponement, the
 * moderator's message, a track or a picture, an edition copied. What no rule knows is shown as
 * "key: value" so nothing recorded is hidden. Pure: the page and its tests call it.
 */
import { formatCompactDate } from "../../../shared/dates.ts";
import { fieldLabel, formatValue } from "../../editor/components/admin/diff-format.ts";
import type { Translate } from "../../editor/components/validate.ts";

/** Keys the rules below put into words. */
const DESCRIBED = new Set([
  "fields",
  "access",
  "message",
  "from",
  "to",
  "date",
  "originalDate",
  "cancelled",
  "check",
  "courses",
  "courseRemoved",
  "track",
  "courseId",
  "trackId",
  "images",
  "kind",
  "file",
  "format",
  "requestId",
  "recipient",
]);

/** A recorded key's name: the editor's label of a form field, else ours, else the key itself. */
function keyLabel(key: string, t: Translate): string {
  const label = fieldLabel(key, t);
  return label !== key ? label : t(`admin:logs.events.keys.${key}`, { defaultValue: key });
}

const isDay = (value: unknown): value is string => typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value);

export function describeChange(
  type: string,
  data: Record<string, unknown>,
  t: Translate,
  locale: "fr" | "en",
): string[] {
  const lines: string[] = [];
  const day = (value: unknown) => (isDay(value) ? formatCompactDate(value.slice(0, 10), locale) : String(value ?? "—"));
  if (Array.isArray(data.fields) && data.fields.length) {
    lines.push(t("admin:logs.events.fields", { fields: data.fields.map((f) => fieldLabel(String(f), t)).join(", ") }));
  }
  if (data.access === "organizer") lines.push(t("admin:logs.events.asOrganizer"));
  // Written by the moderation as {from, to}; older lines (the demo catalogue's) as {originalDate, date}.
  const before = data.from ?? data.originalDate;
  const after = data.to ?? data.date;
  if (type === "postponement" && (before !== undefined || after !== undefined)) {
    lines.push(t("admin:logs.events.postponed", { from: day(before), to: day(after) }));
  }
  if (type === "automatic_copy" && data.from !== undefined) {
    lines.push(t("admin:logs.events.copyFrom", { id: data.from }));
  }
  if (type === "automatic_copy" && data.to !== undefined) lines.push(t("admin:logs.events.copyTo", { id: data.to }));
  if (data.cancelled === false) lines.push(t("admin:logs.events.uncancelled"));
  if (data.check === true) lines.push(t("admin:logs.events.checked"));
  if (typeof data.courses === "number") lines.push(t("admin:logs.events.courses", { count: data.courses }));
  if (data.courseRemoved !== undefined) lines.push(t("admin:logs.events.courseRemoved", { id: data.courseRemoved }));
  if (data.track === "added" || data.track === "removed" || data.track === "reversed") {
    lines.push(t(`admin:logs.events.track.${data.track}`, { course: data.courseId ?? "—" }));
  }
  const images = data.images as { action?: string } | undefined;
  if (images?.action === "reorder" || images?.action === "switch" || images?.action === "delete") {
    lines.push(t(`admin:logs.events.images.${images.action}`));
  }
  if (type === "image_upload") lines.push(t("admin:logs.events.imageUpload", { file: data.file ?? data.kind ?? "—" }));
  if (data.requestId !== undefined && data.requestId !== null) {
    lines.push(t("admin:logs.events.requestId", { id: data.requestId }));
  }
  if (data.recipient === "contact" || data.recipient === "given") {
    lines.push(t(`admin:logs.events.recipient.${data.recipient}`));
  }
  if (typeof data.message === "string" && data.message.trim()) {
    lines.push(t("admin:logs.events.message", { message: data.message.trim() }));
  }
  // Anything else recorded, as it is (older lines, new kinds of change).
  const colon = locale === "fr" ? "\u00a0: " : ": ";
  for (const [key, value] of Object.entries(data)) {
    if (DESCRIBED.has(key) || value === null || value === undefined || value === "") continue;
    lines.push(`${keyLabel(key, t)}${colon}${isDay(value) ? day(value) : formatValue(key, value, t, locale)}`);
  }
  // Dates recorded on another kind of line (a cancellation's day…).
  if (type !== "postponement" && type !== "automatic_copy") {
    for (const key of ["from", "to", "originalDate", "date"] as const) {
      if (data[key] !== undefined && data[key] !== null) lines.push(`${keyLabel(key, t)}${colon}${day(data[key])}`);
    }
  }
  return lines;
}
