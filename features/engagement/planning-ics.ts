import type { Locale } from "../../shared/constants.ts";
import { formatDuration } from "../../shared/format.ts";
import { createI18n } from "../../shared/i18n/index.ts";
import { toIcs } from "../events/ics.ts";
import { type RaceEvent, raceIcsEvent } from "../events/race-ics.ts";
import type { CalendarEntry } from "./engagement.contract.ts";

/** The feed's words, from the engagement catalogue (calendar apps show them as they are). */
const translators = { fr: createI18n("fr"), en: createI18n("en") };

export type PlanningIcsEntry = CalendarEntry & {
  /** The event as a race's entry tells it (race-ics.ts). */
  race: RaceEvent;
  /** The later of the entry's and the event's last change. */
  updatedAt: Date;
};

/**
 * A member's planning as an iCalendar feed (RFC 5545) that calendar apps subscribe to: one VEVENT
 * per planned course, written by the races' one builder (race-ics.ts) — the same UID, STATUS and
 * title as the course's entry in its event's .ics and in the search feed, so a calendar holding
 * both shows the race once. The member's part: their status and target time in the description,
 * the target as the entry's length, and the time marked busy. Courses they will not start are left out.
 */
export function planningIcs(
  entries: readonly PlanningIcsEntry[],
  options: { locale: Locale; now: Date; origin: string },
): string {
  const t = translators[options.locale].t;
  const name = t("engagement:ics.name");
  return toIcs({
    prodId: `-//Dossard//${name}//${options.locale.toUpperCase()}`,
    name,
    description: t("engagement:ics.description"),
    stamp: options.now,
    refreshHours: 6,
    events: entries
      .filter((entry) => entry.shown !== "dns")
      .map((entry) =>
        raceIcsEvent(
          entry.race,
          { id: entry.courseId, ...entry.course },
          {
            locale: options.locale,
            origin: options.origin,
            notes: [
              t(`engagement:plan.statuses.${entry.shown}`),
              entry.targetTime
                ? t("engagement:ics.target", { time: formatDuration(entry.targetTime, options.locale) })
                : null,
            ],
            expectedSeconds: entry.targetTime,
            busy: true,
            lastModified: entry.updatedAt,
          },
        ),
      ),
  });
}
