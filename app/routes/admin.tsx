import { redirect } from "react-router";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { loginRedirect } from "../auth-guard.ts";
import type { Route } from "./+types/admin";

/** `/admin`: the admin area starts with the events to moderate (which refuses non-admins itself). */
export function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  throw redirect(pagePath("adminEvents", localeFromPath(new URL(request.url).pathname)));
}

export default function AdminPage() {
  return null;
}
