import { type SQL, sql } from "drizzle-orm";

/**
 * The time a course's official ranking follows (results.contract.ts TimeBasis), read from the lines
 * as imported: the finishers in rank order, counting each step where a time goes down from one line
 * to the next. The chip time when the gun time goes down more often (or there is no gun time),
 * else the gun time. The import reads a file the same way (import/normalise.ts rankingBasis).
 */
export const basisOf = (courseId: SQL) => sql`(
  SELECT CASE WHEN count(x.time_ms) = 0 AND count(x.net_time_ms) > 0 THEN 'net'
    WHEN count(*) FILTER (WHERE x.net_time_ms < x.prev_net) < count(*) FILTER (WHERE x.time_ms < x.prev_time)
      THEN 'net'
    ELSE 'official' END
  FROM (SELECT time_ms, net_time_ms, lag(time_ms) OVER w AS prev_time, lag(net_time_ms) OVER w AS prev_net
        FROM results WHERE course_id = ${courseId} AND status = 'finished' AND rank IS NOT NULL
        WINDOW w AS (ORDER BY rank, position, id)) x)`;
