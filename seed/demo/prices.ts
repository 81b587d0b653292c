/**
 * A course's registration prices: early bird, standard and late periods (or a single price, or
 * free), in euros, rising a little from one edition to the next.
 */
import type { Rng } from "../../platform/prng.ts";
import type { DemoPriceRow } from "./catalogue-rows.ts";
import type { CourseSpec } from "./courses.ts";
import { fromDayNumber } from "./dates.ts";

/** Price periods before the race: early bird, standard, late (or a single price), in euros. */
export function priceRows(
  rng: Rng,
  spec: CourseSpec,
  raceDay: number,
  opensDay: number,
  inflation: number,
): DemoPriceRow[] {
  const base = spec.basePrice * inflation;
  const euros = (x: number) => (Math.round(x * 2) / 2).toFixed(2);
  if (base <= 0)
    return [{ label: "Gratuit", startsOn: fromDayNumber(opensDay), endsOn: fromDayNumber(raceDay - 1), price: "0.00" }];
  const layout =
    spec.type === "kids"
      ? "single"
      : rng.weighted([
          ["three", 5],
          ["two", 3],
          ["single", 2],
        ] as const);
  const iso = fromDayNumber;
  if (layout === "single")
    return [
      { label: "Tarif unique", startsOn: iso(opensDay), endsOn: iso(raceDay - rng.int(1, 5)), price: euros(base) },
    ];
  if (layout === "two") {
    const close = raceDay - rng.int(8, 21);
    return [
      { label: "Tarif normal", startsOn: iso(opensDay), endsOn: iso(close), price: euros(base) },
      {
        label: "Dernière minute",
        startsOn: iso(close + 1),
        endsOn: iso(raceDay - 1),
        price: euros(base + rng.pick([3, 5, 5, 8])),
      },
    ];
  }
  const earlyEnd = Math.max(opensDay + 14, raceDay - rng.int(75, 110));
  const lateStart = raceDay - rng.int(14, 28);
  return [
    { label: "Early bird", startsOn: iso(opensDay), endsOn: iso(earlyEnd), price: euros(base * rng.range(0.75, 0.88)) },
    { label: "Tarif normal", startsOn: iso(earlyEnd + 1), endsOn: iso(lateStart - 1), price: euros(base) },
    {
      label: "Tarif tardif",
      startsOn: iso(lateStart),
      endsOn: iso(raceDay - rng.int(1, 3)),
      price: euros(base * rng.range(1.1, 1.3)),
    },
  ];
}
