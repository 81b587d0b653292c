import { inject } from "vitest";
import type { EventDetail } from "../../features/events/event-detail.contract.ts";
import { addIsoDays } from "../../shared/dates.ts";
import { parisToday } from "../../shared/zoned-time.ts";

/**
 * The journeys' subjects, chosen in the shared server's demo catalogue by their distance to today.
 *
 * The catalogue is generated around the day the suite runs, so on a Saturday the first "upcoming"
 * races are held today ("En cours", comments open) and on a Monday the last finished ones ended
 * yesterday. A journey that asserts a state therefore never takes "the first one" of a list: it asks
 * for an edition whose state cannot change while it runs — starting at least MARGIN_DAYS after
 * today in France, or finished at least MARGIN_DAYS before it — so the run reads the same kind of
 * data whatever the weekday, the time of day (midnight in Paris is not midnight in UTC) or the load.
 */
export const MARGIN_DAYS = 2;

/** Today's date in France (the server's calendar), shifted by `days`. */
export function franceDay(days = 0): string {
  return addIsoDays(parisToday(), days);
}

async function api<T>(url: string): Promise<T> {
  const response = await fetch(`${inject("baseURL")}${url}`);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return (await response.json()) as T;
}

export const eventDetail = (id: number) => api<EventDetail>(`/api/event/${id}`);

/**
 * Published editions that start at least MARGIN_DAYS from today and are not cancelled or postponed,
 * soonest first, as the event API details them; `accept` picks among them (first `count` kept).
 */
export async function upcomingEditions(
  accept: (event: EventDetail) => boolean | Promise<boolean> = () => true,
  count = 1,
): Promise<EventDetail[]> {
  const from = franceDay(MARGIN_DAYS);
  const found: EventDetail[] = [];
  for (let page = 1; page <= 5 && found.length < count; page++) {
    const { items } = await api<{ items: { id: number }[] }>(`/api/events?from=${from}&perPage=50&page=${page}`);
    for (const { id } of items) {
      const event = await eventDetail(id);
      if (event.state !== "upcoming" || event.startDate < from) continue;
      if (await accept(event)) found.push(event);
      if (found.length === count) break;
    }
    if (items.length < 50) break;
  }
  if (found.length < count) throw new Error(`fewer than ${count} fitting upcoming editions from ${from}`);
  return found;
}

/** Editions finished at least MARGIN_DAYS ago and not cancelled, the most recent first. */
export async function finishedEditions(
  accept: (event: EventDetail) => boolean | Promise<boolean> = () => true,
  count = 1,
): Promise<EventDetail[]> {
  const to = franceDay(-MARGIN_DAYS);
  const { items } = await api<{ items: { id: number }[] }>(`/api/events?past=1&to=${to}&sort=newest&perPage=50`);
  const found: EventDetail[] = [];
  for (const { id } of items) {
    const event = await eventDetail(id);
    if (event.state !== "finished" || event.endDate > to) continue;
    if (await accept(event)) found.push(event);
    if (found.length === count) break;
  }
  if (found.length < count) throw new Error(`fewer than ${count} fitting finished editions up to ${to}`);
  return found;
}
