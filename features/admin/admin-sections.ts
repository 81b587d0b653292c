import type { SectionGroup } from "../../shared/ui/SectionNav.tsx";

/** What the admin menu counts beside its sections: work that waits for an admin. */
export const ADMIN_COUNTERS = ["pendingEvents", "reportedComments", "resultClaims", "failedJobs"] as const;
export type AdminCounter = (typeof ADMIN_COUNTERS)[number];
export type AdminCounts = Record<AdminCounter, number>;

type AdminSection = SectionGroup["sections"][number] & { counter?: AdminCounter };
type AdminGroup = { group: string; sections: readonly AdminSection[] };

/**
 * The admin area's screens by group, in menu order (labels: keys of the admin namespace). A
 * feature's admin screen is one more line here once its route exists (app/routes.ts).
 */
export const ADMIN_SECTIONS: readonly AdminGroup[] = [
  {
    group: "groups.pilot",
    sections: [{ page: "admin", label: "nav.dashboard", counter: "failedJobs" }],
  },
  {
    group: "groups.content",
    sections: [{ page: "adminEvents", label: "nav.events", counter: "pendingEvents" }],
  },
  {
    group: "groups.community",
    sections: [
      { page: "adminUsers", label: "nav.users" },
      { page: "adminComments", label: "nav.comments", counter: "reportedComments" },
      { page: "adminActivities", label: "nav.activities" },
      { page: "adminResultClaims", label: "nav.resultClaims", counter: "resultClaims" },
    ],
  },
  {
    group: "groups.shop",
    sections: [{ page: "adminOrders", label: "nav.orders" }],
  },
  {
    group: "groups.system",
    sections: [{ page: "adminLogs", label: "nav.logs" }],
  },
  {
    group: "groups.back",
    sections: [{ page: "account", label: "nav.account" }],
  },
];
