import type { EventState } from "../../shared/constants.ts";

/** An event's displayed state: its flags first, then its dates compared with today (YYYY-MM-DD). */
export function eventState(
  e: { cancelled: boolean; postponed: boolean; startDate: string; endDate: string },
  today: string,
): EventState {
  if (e.cancelled) return "cancelled";
  if (e.postponed) return "postponed";
  if (e.endDate < today) return "finished";
  if (e.startDate <= today) return "in_progress";
  return "upcoming";
}
