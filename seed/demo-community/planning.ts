/**
 * Upcoming races in the demo members' planning: up to four courses of their sports each, some
 * registered, the others planned.
 */
import type { calendarEntries } from "../../features/engagement/engagement.tables.ts";
import type { Rng } from "../../platform/prng.ts";
import { type Course, fits, type Member } from "./race-model.ts";

const dayMs = 86_400_000;

export function planRows(
  upcoming: readonly Course[],
  members: readonly Member[],
  now: Date,
  rng: Rng,
): (typeof calendarEntries.$inferInsert)[] {
  const plans: (typeof calendarEntries.$inferInsert)[] = [];
  for (const member of members) {
    const candidates = upcoming.filter((c) => fits(member, c));
    const count = Math.min(candidates.length, rng.int(0, 4));
    const chosen = new Set<number>();
    for (let k = 0; k < count; k++) {
      const course = candidates[rng.int(0, candidates.length - 1)] as Course;
      if (chosen.has(course.id)) continue;
      chosen.add(course.id);
      plans.push({
        userId: member.id,
        courseId: course.id,
        eventId: course.event_id,
        status: rng.chance(0.4) ? "registered" : "planned",
        createdAt: new Date(now.getTime() - rng.int(0, 60) * dayMs - rng.int(0, 86_399) * 1000),
      });
    }
  }
  return plans;
}
