/**
 * Reading an edition's results (one course at a time, by page), deleting lines, and members' own
 * results: claiming a line ("c'est moi"), recording one by hand for a past course without imported
 * results, and the account area's list. Every change to a member's results ends with
 * refreshMemberAchievements (badges, best times) for the members it touched.
 */
import { sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { isUniqueViolation, rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { parisToday } from "../../shared/zoned-time.ts";
import { forgetBestTimeOf, refreshMemberAchievements } from "../badges/badges.service.server.ts";
import { type Actor, eventAccess } from "../events/event-access.server.ts";
import type { UserRow } from "../identity/sessions.server.ts";
import { displayName } from "../identity/users.server.ts";
import { dropOrphanClaims } from "./claims.service.server.ts";
import { matchName, nameWords } from "./names.ts";
import {
  type CourseResults,
  type EventResultsSummary,
  type ManualResultEdit,
  type ManualResultInput,
  type MemberResult,
  paceOf,
  type RecordableCourse,
  type ResultRow,
  type ResultsQuery,
  rankPercentile,
  type TimeBasis,
  timesOf,
} from "./results.contract.ts";
import { basisOf } from "./time-basis.server.ts";

type RawRow = {
  id: number;
  rank: number | null;
  sex_rank: number | null;
  category_rank: number | null;
  bib: string | null;
  name: string;
  club: string | null;
  sex: "M" | "F" | null;
  country: string | null;
  category: string | null;
  time_ms: number | null;
  net_time_ms: number | null;
  status: ResultRow["status"];
  source: ResultRow["source"];
  claimed: boolean;
  member_slug: string | null;
};

/** A results line as the tables read it (`r`: results, `u`: the member who has it). */
const LINE_COLUMNS = sql`r.id, r.rank, r.sex_rank, r.category_rank, r.bib, r.name, r.club, r.sex, r.country,
  r.category, r.time_ms, r.net_time_ms, r.status, r.source, (r.user_id IS NOT NULL) AS claimed,
  CASE WHEN u.public_profile AND u.disabled_at IS NULL THEN u.slug END AS member_slug`;

const toRow = (r: RawRow, basis: TimeBasis, distance: number | null): ResultRow => ({
  id: r.id,
  rank: r.rank,
  sexRank: r.sex_rank,
  categoryRank: r.category_rank,
  bib: r.bib,
  name: r.name,
  club: r.club,
  sex: r.sex,
  country: r.country,
  category: r.category,
  timeMs: r.time_ms,
  netTimeMs: r.net_time_ms,
  paceSPerKm:
    r.status === "finished"
      ? paceOf(timesOf({ timeMs: r.time_ms, netTimeMs: r.net_time_ms }, basis).shown, distance)
      : null,
  status: r.status,
  source: r.source,
  claimed: r.claimed,
  memberSlug: r.member_slug,
});

/** LIKE's own characters taken literally. */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, "\\$&");

type CourseInfo = {
  id: number;
  event_id: number;
  distance: number | null;
  start_date: string;
  date: string;
  name: string;
};

export function resultsService(db: Db, clock: () => Date) {
  const today = () => parisToday(clock());

  /**
   * The member's hand-recorded result, inside the caller's transaction (the account's form, and an
   * activity made a result in features/activities): the edition must have taken place, the course
   * have no imported results, the member no result there yet; their badges are refreshed.
   */
  async function recordManualIn(
    tx: Executor,
    user: Pick<UserRow, "id" | "pseudo" | "firstName" | "lastName">,
    body: ManualResultInput,
  ): Promise<number> {
    try {
      // The course row is locked: an import starting now waits, and a second record too.
      const course = await listedCourse(tx, body.courseId);
      await tx.execute(sql`SELECT id FROM courses WHERE id = ${course.id} FOR UPDATE`);
      if (course.start_date > today()) throw new ApiError("RESULT_EVENT_NOT_HELD");
      const [state] = await rows<{ imported: boolean; mine: boolean }>(
        tx,
        sql`SELECT EXISTS (SELECT 1 FROM results WHERE course_id = ${course.id} AND source = 'import') AS imported,
              EXISTS (SELECT 1 FROM results WHERE course_id = ${course.id} AND user_id = ${user.id}) AS mine`,
      );
      if (state?.mine) throw new ApiError("RESULT_ALREADY_RECORDED");
      if (state?.imported) throw new ApiError("COURSE_HAS_RESULTS");
      const timeMs = body.status === "finished" ? (body.timeMs ?? null) : null;
      const [inserted] = await rows<{ id: number }>(
        tx,
        sql`INSERT INTO results (course_id, event_id, source, status, rank, name, first_name, last_name,
              time_ms, pace_s_per_km, user_id, claimed_at)
            VALUES (${course.id}, ${course.event_id}, 'manual', ${body.status}, ${body.status === "finished" ? (body.rank ?? null) : null},
              ${displayName(user)}, ${user.firstName}, ${user.lastName}, ${timeMs},
              ${paceOf(timeMs, course.distance)}, ${user.id}, ${clock()})
            RETURNING id`,
      );
      await refreshMemberAchievements(tx, [user.id]);
      return inserted?.id ?? 0;
    } catch (error) {
      if (isUniqueViolation(error, "results_user_course_idx")) throw new ApiError("RESULT_ALREADY_RECORDED");
      throw error;
    }
  }

  /** A course of a listed edition, or ITEM_NOT_FOUND. */
  async function listedCourse(executor: Executor, courseId: number): Promise<CourseInfo> {
    const [course] = await rows<CourseInfo>(
      executor,
      sql`SELECT c.id, c.event_id, c.distance, c.name, e.start_date::text AS start_date,
            coalesce((c.start_at AT TIME ZONE 'Europe/Paris')::date, e.start_date)::text AS date
          FROM courses c JOIN events e ON e.id = c.event_id
          WHERE c.id = ${courseId} AND e.status = 'active'`,
    );
    if (!course) throw new ApiError("ITEM_NOT_FOUND");
    return course;
  }

  /**
   * One page of a course's results. A signed-in viewer also gets their line (`mine`), the line of
   * their claim waiting for the organiser (`pending`), which lines bear their name (`couldBeYou`)
   * and, without either, the course's unclaimed lines that do (`suggestions`).
   */
  async function courseResults(
    courseId: number,
    query: ResultsQuery,
    viewer?: Pick<UserRow, "id" | "firstName" | "lastName">,
  ): Promise<CourseResults> {
    const viewerId = viewer?.id;
    const course = await listedCourse(db, courseId);
    const filters = [sql`r.course_id = ${courseId}`];
    if (query.type === "men") filters.push(sql`r.sex = 'M'`);
    if (query.type === "women") filters.push(sql`r.sex = 'F'`);
    if (query.type === "category") filters.push(sql`r.category = ${query.category ?? ""}`);
    const q = query.q?.trim();
    if (q) {
      const pattern = `%${likeEscape(q.toLowerCase())}%`;
      const byName = sql`immutable_unaccent(lower(r.name)) LIKE immutable_unaccent(${pattern})`;
      filters.push(/^\d{1,16}$/.test(q) ? sql`(r.bib = ${q} OR ${byName})` : byName);
    }
    const where = sql.join(filters, sql` AND `);
    // Each view in its own index's order (results_course_rank_idx, _sex_idx, _category_idx): the
    // view's rank first (runners without one, DNF and others, last), then the status (finished,
    // dnf, dns, dsq: the enum's order) and the line's place in the file.
    const order =
      query.type === "men" || query.type === "women"
        ? sql`r.sex_rank, r.status, r.rank NULLS LAST, r.position, r.id`
        : query.type === "category"
          ? sql`r.category_rank, r.status, r.rank NULLS LAST, r.position, r.id`
          : sql`r.status, r.rank NULLS LAST, r.position, r.id`;
    const offset = (query.page - 1) * query.pageSize;
    // One pass over the course gives the totals, the categories and (without a search) the count.
    const [found, groups, counted, mine, [basis], named] = await Promise.all([
      rows<RawRow>(
        db,
        sql`SELECT ${LINE_COLUMNS} FROM results r LEFT JOIN users u ON u.id = r.user_id
            WHERE ${where}
            ORDER BY ${order}
            LIMIT ${query.pageSize} OFFSET ${offset}`,
      ),
      rows<{ category: string | null; sex: "M" | "F" | null; status: ResultRow["status"]; source: string; n: number }>(
        db,
        sql`SELECT category, sex, status, source, count(*)::int AS n FROM results WHERE course_id = ${courseId}
            GROUP BY category, sex, status, source`,
      ),
      q ? rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM results r WHERE ${where}`) : null,
      viewerId === undefined
        ? Promise.resolve(null)
        : rows<{ mine: number | null; pending: number | null }>(
            db,
            sql`SELECT (SELECT id FROM results WHERE course_id = ${courseId} AND user_id = ${viewerId} LIMIT 1) AS mine,
                  (SELECT result_id FROM result_claims
                   WHERE course_id = ${courseId} AND user_id = ${viewerId} AND status = 'pending') AS pending`,
          ),
      rows<{ basis: TimeBasis }>(db, sql`SELECT ${basisOf(sql`${courseId}`)} AS basis`),
      viewer ? linesNamed(courseId, viewer) : Promise.resolve([]),
    ]);
    const timeBasis = basis?.basis ?? "official";
    const line = (r: RawRow): ResultRow => {
      const row = toRow(r, timeBasis, course.distance);
      return viewer ? { ...row, couldBeYou: matchName(r.name, viewer) !== "none" } : row;
    };
    const sum = (test: (g: (typeof groups)[number]) => boolean) =>
      groups.reduce((total, g) => total + (test(g) ? g.n : 0), 0);
    const inView = (g: (typeof groups)[number]) =>
      query.type === "men"
        ? g.sex === "M"
        : query.type === "women"
          ? g.sex === "F"
          : query.type === "category"
            ? g.category === query.category
            : true;
    const entries = sum(() => true);
    const answer: CourseResults = {
      courseId,
      eventId: course.event_id,
      distance: course.distance,
      course: { name: course.name, distance: course.distance, date: course.date },
      timeBasis,
      manualOnly: entries > 0 && sum((g) => g.source === "import") === 0,
      type: query.type,
      category: query.type === "category" ? (query.category ?? null) : null,
      page: query.page,
      pageSize: query.pageSize,
      matching: counted ? (counted[0]?.n ?? 0) : sum(inView),
      totals: {
        entries,
        finished: sum((g) => g.status === "finished"),
        dnf: sum((g) => g.status === "dnf"),
        dns: sum((g) => g.status === "dns"),
        dsq: sum((g) => g.status === "dsq"),
        men: sum((g) => g.sex === "M"),
        women: sum((g) => g.sex === "F"),
      },
      categories: [...new Set(groups.flatMap((g) => (g.category === null ? [] : [g.category])))].sort((a, b) =>
        a.localeCompare(b, "fr"),
      ),
      rows: found.map(line),
    };
    if (mine) {
      answer.mine = mine[0]?.mine ?? null;
      answer.pending = mine[0]?.pending ?? null;
      answer.suggestions = answer.mine === null && answer.pending === null ? named.map(line) : [];
    }
    return answer;
  }

  /**
   * The course's unclaimed lines whose name is the member's (five at most, in rank order): those
   * with the surname's longest word (trigram index), then compared word by word (names.ts).
   */
  async function linesNamed(courseId: number, member: Pick<UserRow, "firstName" | "lastName">): Promise<RawRow[]> {
    const word = nameWords(member.lastName).sort((a, b) => b.length - a.length)[0];
    if (!word || nameWords(member.firstName).length === 0) return [];
    const found = await rows<RawRow>(
      db,
      sql`SELECT ${LINE_COLUMNS} FROM results r LEFT JOIN users u ON u.id = r.user_id
          WHERE r.course_id = ${courseId} AND r.user_id IS NULL
            AND immutable_unaccent(lower(r.name)) LIKE ${`%${likeEscape(word)}%`}
          ORDER BY r.status, r.rank NULLS LAST, r.position, r.id
          LIMIT 50`,
    );
    return found.filter((r) => matchName(r.name, member) !== "none").slice(0, 5);
  }

  /** The edition's courses with their counts (one grouped query on results_event_idx). */
  async function eventSummary(eventId: number): Promise<EventResultsSummary> {
    const found = await rows<{ course_id: number; name: string; entries: number; finished: number }>(
      db,
      sql`SELECT c.id AS course_id, c.name, count(r.id)::int AS entries,
            count(r.id) FILTER (WHERE r.status = 'finished')::int AS finished
          FROM courses c LEFT JOIN results r ON r.course_id = c.id
          WHERE c.event_id = ${eventId}
          GROUP BY c.id, c.name, c.position ORDER BY c.position, c.id`,
    );
    return {
      eventId,
      finishers: found.reduce((sum, c) => sum + c.finished, 0),
      courses: found.map((c) => ({ courseId: c.course_id, name: c.name, entries: c.entries, finished: c.finished })),
    };
  }

  /** Unlinks a member's line (before it is deleted or unclaimed): their best time is recomputed. */
  async function detach(tx: Executor, resultIds: number[]) {
    for (const id of resultIds) await forgetBestTimeOf(tx, id);
  }

  return {
    courseResults,
    eventSummary,

    /**
     * DELETE /api/results/{id}: one line. Admins and the edition's editors (owner, organisers) may
     * delete any line; a member only their own hand-recorded result.
     */
    async deleteLine(actor: Actor, resultId: number): Promise<{ deleted: number }> {
      return db.transaction(async (tx) => {
        const [line] = await rows<{ id: number; event_id: number; user_id: number | null; source: string }>(
          tx,
          sql`SELECT id, event_id, user_id, source FROM results WHERE id = ${resultId} FOR UPDATE`,
        );
        if (!line) throw new ApiError("ITEM_NOT_FOUND");
        const own = line.user_id === actor.id && line.source === "manual";
        if (!own) {
          const access = await eventAccess(tx, actor, line.event_id);
          if (access !== "admin" && access !== "owner" && access !== "organizer") throw new ApiError("FORBIDDEN");
        }
        await detach(tx, [line.id]);
        const [gone] = await rows<{ course_id: number }>(
          tx,
          sql`DELETE FROM results WHERE id = ${line.id} RETURNING course_id`,
        );
        // Claims waiting on the line go with it.
        if (gone) await dropOrphanClaims(tx, gone.course_id);
        if (line.user_id !== null) await refreshMemberAchievements(tx, [line.user_id]);
        return { deleted: 1 };
      });
    },

    /**
     * DELETE /api/results/course/{id} (the route checks the caller edits the course): every
     * imported line of the course, e.g. before importing a corrected file. Members' hand-recorded
     * results stay (they are theirs); members who had claimed a line lose its badges.
     */
    async deleteCourse(courseId: number): Promise<{ deleted: number; members: number }> {
      return db.transaction(async (tx) => {
        await listedCourseOrAny(tx, courseId);
        const claimed = await rows<{ id: number; user_id: number }>(
          tx,
          sql`SELECT id, user_id FROM results WHERE course_id = ${courseId} AND source = 'import' AND user_id IS NOT NULL`,
        );
        await detach(
          tx,
          claimed.map((c) => c.id),
        );
        const deleted = await rows<{ id: number }>(
          tx,
          sql`DELETE FROM results WHERE course_id = ${courseId} AND source = 'import' RETURNING id`,
        );
        await dropOrphanClaims(tx, courseId);
        const members = [...new Set(claimed.map((c) => c.user_id))];
        await refreshMemberAchievements(tx, members);
        return { deleted: deleted.length, members: members.length };
      });
    },

    /**
     * A result typed by the member for a course of a past edition that has no imported results
     * (otherwise they claim their line). One result per member per course.
     */
    async recordManual(user: UserRow, body: ManualResultInput): Promise<MemberResult> {
      const id = await db.transaction((tx) => recordManualIn(tx, user, body));
      return (await memberResults(db, user.id, id))[0] as MemberResult;
    },

    recordManualIn,

    /** Corrects the member's own hand-recorded result. */
    async editManual(user: Pick<UserRow, "id">, resultId: number, body: ManualResultEdit): Promise<MemberResult> {
      await db.transaction(async (tx) => {
        const [line] = await rows<{ id: number; distance: number | null }>(
          tx,
          sql`SELECT r.id, c.distance FROM results r JOIN courses c ON c.id = r.course_id
              WHERE r.id = ${resultId} AND r.user_id = ${user.id} AND r.source = 'manual' FOR UPDATE OF r`,
        );
        if (!line) throw new ApiError("ITEM_NOT_FOUND");
        await detach(tx, [line.id]);
        const timeMs = body.status === "finished" ? (body.timeMs ?? null) : null;
        await tx.execute(
          sql`UPDATE results SET status = ${body.status}, time_ms = ${timeMs},
                rank = ${body.status === "finished" ? (body.rank ?? null) : null},
                pace_s_per_km = ${paceOf(timeMs, line.distance)}
              WHERE id = ${line.id}`,
        );
        await refreshMemberAchievements(tx, [user.id]);
      });
      return (await memberResults(db, user.id, resultId))[0] as MemberResult;
    },

    memberResults: (userId: number) => memberResults(db, userId),

    /**
     * Past courses in the member's planning without a result of theirs: the account area offers
     * to record (or claim) them. `courseId` adds that course whatever the planning says.
     */
    async recordable(userId: number, courseId?: number): Promise<RecordableCourse[]> {
      const found = await rows<{
        id: number;
        name: string;
        distance: number | null;
        has_results: boolean;
        event_id: number;
        event_name: string;
        slug: string;
        start_date: string;
      }>(
        db,
        sql`SELECT c.id, c.name, c.distance, e.id AS event_id, e.name AS event_name, e.slug,
              e.start_date::text AS start_date,
              EXISTS (SELECT 1 FROM results r WHERE r.course_id = c.id AND r.source = 'import') AS has_results
            FROM courses c JOIN events e ON e.id = c.event_id
            WHERE e.status = 'active' AND e.start_date <= ${today()}::date
              AND NOT EXISTS (SELECT 1 FROM results r WHERE r.course_id = c.id AND r.user_id = ${userId})
              AND (c.id IN (SELECT course_id FROM calendar_entries WHERE user_id = ${userId} AND status <> 'dns')
                   ${courseId ? sql`OR c.id = ${courseId}` : sql``})
            ORDER BY e.start_date DESC, c.position, c.id
            LIMIT 50`,
      );
      return found.map((c) => ({
        id: c.id,
        name: c.name,
        distance: c.distance,
        hasResults: c.has_results,
        event: { id: c.event_id, name: c.event_name, slug: c.slug, date: c.start_date },
      }));
    },
  };

  async function listedCourseOrAny(executor: Executor, courseId: number) {
    const [course] = await rows<{ id: number }>(executor, sql`SELECT id FROM courses WHERE id = ${courseId}`);
    if (!course) throw new ApiError("ITEM_NOT_FOUND");
  }
}
export type ResultsService = ReturnType<typeof resultsService>;

/**
 * The member is deleted (accounts' member data port, decision 048): their result lines stay in the
 * editions' results as anonymous lines — the ones they recorded by hand lose the name they were
 * given, an imported line keeps the name the timing company published — their claims go, and the
 * claims they decided and the files they imported no longer name them. Answers the lines kept.
 */
export async function removeMemberResults(tx: Executor, userId: number): Promise<number> {
  await tx.execute(
    sql`UPDATE results SET name = '', first_name = NULL, last_name = NULL WHERE user_id = ${userId} AND source = 'manual'`,
  );
  const kept = await rows<{ id: number }>(
    tx,
    sql`UPDATE results SET user_id = NULL, claimed_at = NULL WHERE user_id = ${userId} RETURNING id`,
  );
  await tx.execute(sql`DELETE FROM result_claims WHERE user_id = ${userId}`);
  await tx.execute(sql`UPDATE result_claims SET decided_by = NULL WHERE decided_by = ${userId}`);
  await tx.execute(sql`UPDATE result_imports SET user_id = NULL WHERE user_id = ${userId}`);
  return kept.length;
}

/** The member's results, newest edition first (or one of them), with the rank read against the finishers. */
export async function memberResults(db: Executor, userId: number, only?: number): Promise<MemberResult[]> {
  const found = await rows<{
    id: number;
    source: MemberResult["source"];
    status: MemberResult["status"];
    time_ms: number | null;
    net_time_ms: number | null;
    time_basis: TimeBasis;
    rank: number | null;
    finishers: number;
    imported: boolean;
    course_id: number;
    course_name: string;
    distance: number | null;
    event_id: number;
    event_name: string;
    slug: string;
    start_date: string;
  }>(
    db,
    sql`SELECT r.id, r.source, r.status, r.time_ms, r.net_time_ms, ${basisOf(sql`r.course_id`)} AS time_basis, r.rank,
          f.finishers, f.imported, c.id AS course_id, c.name AS course_name, c.distance,
          e.id AS event_id, e.name AS event_name, e.slug, e.start_date::text AS start_date
        FROM results r
        JOIN courses c ON c.id = r.course_id
        JOIN events e ON e.id = r.event_id
        CROSS JOIN LATERAL (
          SELECT count(*) FILTER (WHERE x.status = 'finished' AND x.source = 'import')::int AS finishers,
            bool_or(x.source = 'import') AS imported
          FROM results x WHERE x.course_id = r.course_id
        ) f
        WHERE r.user_id = ${userId} ${only ? sql`AND r.id = ${only}` : sql``}
        ORDER BY e.start_date DESC, r.id DESC`,
  );
  return found.map((r) => {
    const finishers = r.imported ? r.finishers : null;
    const time = timesOf({ timeMs: r.time_ms, netTimeMs: r.net_time_ms }, r.time_basis).shown;
    return {
      id: r.id,
      source: r.source,
      status: r.status,
      timeMs: time,
      timeBasis: r.time_basis,
      paceSPerKm: paceOf(time, r.distance),
      rank: r.rank,
      finishers,
      percentile: r.status === "finished" ? rankPercentile(r.rank, finishers) : null,
      course: { id: r.course_id, name: r.course_name, distance: r.distance },
      event: { id: r.event_id, name: r.event_name, slug: r.slug, date: r.start_date },
    };
  });
}
