import type { BusinessFigures } from "../features/admin/admin.contract.ts";
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
    jobStats: AdminPorts["jobs"];
    mailCounts: () => Promise<BusinessFigures["mail"]>;
  },
): AdminPorts {
  return {
    async waiting() {
      const [pendingEvents, reportedComments, resultClaims] = await Promise.all([
        from.waitingEvents(),
        from.reportedComments(),
        from.pendingClaims(),
      ]);
      return { pendingEvents, reportedComments, resultClaims };
    },
    jobs: from.jobStats,
    async business() {
      const now = clock();
      const month = new Date(now.getTime() - 30 * DAY_MS);
      const [members, events, results, sales, posters, mail] = await Promise.all([
        memberCounts(db, now),
        catalogueCounts(db, parisToday(now), month),
        resultCounts(db, month),
        salesSince(db, month),
        posterCounts(db, month),
        from.mailCounts(),
      ]);
      return { members, events, results, sales, posters, mail };
    },
  };
}
