import type { EventState } from "../../shared/constants.ts";

/**
 * An event's displayed state (today is YYYY-MM-DD). A cancelled event stays cancelled. The
 * postponed flag stays set once an organiser moves the date (the original date is kept), but it
 * only describes the race ahead: once its new dates arrive it is in progress, then finished.
 */
export function eventState(
  e: { cancelled: boolean; postponed: boolean; startDate: string; endDate: string },
  today: string,
): EventState {
  if (e.cancelled) return "cancelled";
  if (e.endDate < today) return "finished";
  if (e.startDate <= today) return "in_progress";
  if (e.postponed) return "postponed";
  return "upcoming";
}
