import type { AdminPorts } from "../features/admin/admin.service.server.ts";
import { catalogueCounts } from "../features/events/catalogue-counts.server.ts";
import { memberCounts } from "../features/identity/member-counts.server.ts";
import { salesSince } from "../features/orders/sales-counts.server.ts";
import { posterCounts } from "../features/posters/poster-counts.server.ts";
import { resultCounts } from "../features/results/result-counts.server.ts";
import type { Db } from "../platform/db/client.server.ts";
import { parisToday } from "../shared/zoned-time.ts";

const DAY_MS = 86_400_000;

/** What the admin area counts, each figure asked of the feature that owns it (features/admin's ports). */
export function adminPorts(
  db: Db,
  clock: () => Date,
  from: {
    waitingEvents: () => Promise<number>;
    reportedComments: () => Promise<number>;
    pendingClaims: () => Promise<number>;
    jobStats: () => Promise<{
      pending: number;
      running: number;
      failed: number;
      byQueue: { queue: string; pending: number; running: number; failed: number }[];
    }>;
    mailCounts: () => Promise<{ queued: number; sent24h: number; failed24h: number }>;
  },
): AdminPorts {
  return {
    async counts() {
      const [pendingEvents, reportedComments, resultClaims, jobs] = await Promise.all([
        from.waitingEvents(),
        from.reportedComments(),
        from.pendingClaims(),
        from.jobStats(),
      ]);
      return { pendingEvents, reportedComments, resultClaims, failedJobs: jobs.failed };
    },
    async business() {
      const now = clock();
      const month = new Date(now.getTime() - 30 * DAY_MS);
      const [members, events, results, sales, posters, mail, jobs] = await Promise.all([
        memberCounts(db, now),
        catalogueCounts(db, parisToday(now), month),
        resultCounts(db, month),
        salesSince(db, month),
        posterCounts(db, month),
        from.mailCounts(),
        from.jobStats(),
      ]);
      return { members, events, results, sales, posters, mail, jobs };
    },
  };
}
