import { Outlet } from "react-router";
import { AdminForbidden } from "../../features/admin/components/AdminForbidden.tsx";
import type { AdminShellData } from "../../features/admin/components/AdminLayout.tsx";
import type { Route } from "./+types/admin-shell";

const NOTHING: AdminShellData["counts"] = { pendingEvents: 0, reportedComments: 0, resultClaims: 0, failedJobs: 0 };

/**
 * The parent of every admin screen: loads the menu's counts once for them all. Each screen's own
 * loader still refuses visitors and members (loaders run side by side), so this one only answers
 * nothing to them.
 */
export async function loader({ context }: Route.LoaderArgs): Promise<AdminShellData> {
  if (context.user?.role !== "admin") return { counts: NOTHING };
  return { counts: await context.services.admin.counts() };
}

export default function AdminShell() {
  return <Outlet />;
}

/** A member who is not an admin, on any admin screen without a boundary of its own. */
export const ErrorBoundary = AdminForbidden;
