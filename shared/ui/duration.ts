/**
 * Pure rules of the duration input (spec §5 "Duration input"): hours 0…max (default 999, at most
 * 3 characters), minutes and seconds 0…59 (at most 2 characters), empty parts count as 00,
 * and an all-zero duration is empty (null). Values travel as a number of seconds.
 */

export const DEFAULT_MAX_HOURS = 999;
export const DURATION_PARTS = ["hours", "minutes", "seconds"] as const;
export type DurationPart = (typeof DURATION_PARTS)[number];
export type DurationTexts = Record<DurationPart, string>;

/** Most characters a part may hold. */
export const PART_MAX_LENGTH: Record<DurationPart, number> = { hours: 3, minutes: 2, seconds: 2 };

/** Largest number a part accepts. */
export function partMax(part: DurationPart, maxHours = DEFAULT_MAX_HOURS): number {
  return part === "hours" ? maxHours : 59;
}

/** Whether a part's text is acceptable: empty, or digits within its length and range. */
export function isPartValid(part: DurationPart, text: string, maxHours = DEFAULT_MAX_HOURS): boolean {
  if (text === "") return true;
  if (!/^\d+$/.test(text) || text.length > PART_MAX_LENGTH[part]) return false;
  return Number(text) <= partMax(part, maxHours);
}

/** Parts to seconds; null when all parts are zero or empty, undefined when a part is invalid. */
export function partsToSeconds(texts: DurationTexts, maxHours = DEFAULT_MAX_HOURS): number | null | undefined {
  if (!DURATION_PARTS.every((part) => isPartValid(part, texts[part], maxHours))) return undefined;
  const total = Number(texts.hours || 0) * 3600 + Number(texts.minutes || 0) * 60 + Number(texts.seconds || 0);
  return total === 0 ? null : total;
}

/** Seconds to zero-padded parts (empty parts when the value is null or not positive). */
export function secondsToParts(seconds: number | null | undefined): DurationTexts {
  if (seconds == null || !Number.isFinite(seconds) || seconds <= 0) return { hours: "", minutes: "", seconds: "" };
  const whole = Math.floor(seconds);
  return {
    hours: String(Math.floor(whole / 3600)).padStart(2, "0"),
    minutes: String(Math.floor((whole % 3600) / 60)).padStart(2, "0"),
    seconds: String(whole % 60).padStart(2, "0"),
  };
}

/** Seconds to "hh:mm:ss" (hours keep at least two digits); "" for an empty duration. */
export function formatDuration(seconds: number | null | undefined): string {
  const parts = secondsToParts(seconds);
  return parts.hours === "" ? "" : `${parts.hours}:${parts.minutes}:${parts.seconds}`;
}

/**
 * "hh:mm:ss" (or "mm:ss", or "ss") to seconds. Empty parts count as 00, all-zero gives null,
 * and text breaking a rule (too long, out of range, not digits) gives undefined.
 */
export function parseDuration(text: string, maxHours = DEFAULT_MAX_HOURS): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const pieces = trimmed.split(":");
  if (pieces.length > 3) return undefined;
  const [hours, minutes, seconds] = [...Array(3 - pieces.length).fill(""), ...pieces] as string[];
  return partsToSeconds({ hours, minutes, seconds }, maxHours);
}
