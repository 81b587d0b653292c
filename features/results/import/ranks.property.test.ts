import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { timesOf } from "../results.contract.ts";
import { computeMissing, type ImportedRow, normaliseRows, rankingBasis, rankingTime } from "./normalise.ts";
import { formatTimeMs, parseSingleTime } from "./times.ts";

const STATUSES = ["finished", "finished", "finished", "dnf", "dns", "dsq"] as const;

/** Lines as a file would give them: no ranks, times drawn from a narrow range so ties happen. */
const rowsArb = fc
  .array(
    fc.record({
      status: fc.constantFrom(...STATUSES),
      sex: fc.constantFrom("M" as const, "F" as const, null),
      category: fc.constantFrom("SEH", "SEF", "M0H", "M0F", null),
      timeMs: fc.option(
        fc.integer({ min: 1_500_000, max: 1_520_000 }).map((ms) => ms - (ms % 1000)),
        {
          freq: 8,
        },
      ),
      netTimeMs: fc.option(fc.integer({ min: 1_400_000, max: 1_520_000 }), { freq: 2 }),
    }),
    { maxLength: 300 },
  )
  .map((list) =>
    list.map(
      (r, position): ImportedRow => ({
        ...r,
        position,
        line: position + 2,
        rank: null,
        sexRank: null,
        categoryRank: null,
        bib: String(position + 1),
        name: `Runner ${position}`,
        firstName: null,
        lastName: null,
        club: null,
        country: null,
        paceSPerKm: null,
      }),
    ),
  );

/** What a rank must be: one more than the finishers of the group who were strictly faster. */
function expectedRank(row: ImportedRow, group: ImportedRow[]): number {
  const time = rankingTime(row)!;
  return 1 + group.filter((other) => rankingTime(other)! < time).length;
}

describe("computed ranks and paces", () => {
  it("general ranks follow the time among finishers, ties share a rank, others have none", () => {
    fc.assert(
      fc.property(rowsArb, (rows) => {
        computeMissing(rows, null);
        const ranked = rows.filter((r) => r.status === "finished" && rankingTime(r) !== null);
        for (const row of rows) {
          if (!ranked.includes(row)) expect(row.rank).toBeNull();
          else expect(row.rank).toBe(expectedRank(row, ranked));
        }
        // Ranks increase with time: sorted by time, ranks never go down, and equal times share.
        const byTime = [...ranked].sort((a, b) => rankingTime(a)! - rankingTime(b)!);
        for (let i = 1; i < byTime.length; i++) {
          const [a, b] = [byTime[i - 1]!, byTime[i]!];
          if (rankingTime(a) === rankingTime(b)) expect(b.rank).toBe(a.rank);
          else expect(b.rank).toBe(i + 1);
        }
      }),
    );
  });

  it("sex ranks count within each sex, category ranks within each category", () => {
    fc.assert(
      fc.property(rowsArb, (rows) => {
        computeMissing(rows, null);
        const ranked = rows.filter((r) => r.status === "finished" && rankingTime(r) !== null);
        for (const row of rows) {
          const sameSex = ranked.filter((other) => row.sex && other.sex === row.sex);
          if (!ranked.includes(row) || !row.sex) expect(row.sexRank).toBeNull();
          else {
            expect(row.sexRank).toBe(expectedRank(row, sameSex));
            expect(row.sexRank).toBeLessThanOrEqual(sameSex.length);
            expect(row.sexRank).toBeLessThanOrEqual(row.rank!);
          }
          const sameCategory = ranked.filter((other) => row.category && other.category === row.category);
          if (!ranked.includes(row) || !row.category) expect(row.categoryRank).toBeNull();
          else expect(row.categoryRank).toBe(expectedRank(row, sameCategory));
        }
        // The men's and women's first places exist once each sex has a finisher (ties aside).
        for (const sex of ["M", "F"] as const) {
          const group = ranked.filter((r) => r.sex === sex);
          if (group.length) expect(group.some((r) => r.sexRank === 1)).toBe(true);
        }
      }),
    );
  });

  it("pace × distance gives the time back, within the rounding of the pace", () => {
    fc.assert(
      fc.property(rowsArb, fc.integer({ min: 1_000, max: 170_000 }), (rows, distanceM) => {
        computeMissing(rows, distanceM);
        // The pace is read from the time the table shows: the one the (computed) ranks follow.
        const basis = rankingBasis(rows);
        if (rows.some((r) => r.status === "finished" && r.timeMs !== null)) expect(basis).toBe("official");
        for (const row of rows) {
          const ms = timesOf(row, basis).shown;
          if (row.status !== "finished" || ms === null) {
            expect(row.paceSPerKm).toBeNull();
            continue;
          }
          const km = distanceM / 1000;
          // Pace is whole seconds per km: the time it gives back is off by at most half a second per km.
          expect(Math.abs(row.paceSPerKm! * km - ms / 1000)).toBeLessThanOrEqual(km / 2 + 1e-9);
        }
      }),
    );
  });

  it("keeps the ranks a file gives instead of computing its own", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 60, max: 20_000 }), { minLength: 1, maxLength: 50 }), (seconds) => {
        // The file's ranks are the reverse of the time order: they must come back untouched.
        const lines = seconds.map((s, i) => ({
          line: i + 2,
          cells: [String(seconds.length - i), `Runner ${i}`, formatTimeMs(s * 1000)],
        }));
        const { rows, computed } = normaliseRows([{ line: 1, cells: ["Clt", "Nom", "Temps"] }, ...lines], {
          distanceM: null,
        });
        expect(computed.rank).toBe(false);
        expect(rows.map((r) => r.rank)).toEqual(seconds.map((_, i) => seconds.length - i));
      }),
    );
  });

  it("reads back every time it prints, to the tenth", () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 5 * 86_400_000 }), (ms) => {
        expect(parseSingleTime(formatTimeMs(ms))).toBe(ms - (ms % 100));
      }),
    );
  });
});
