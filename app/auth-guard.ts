import { redirect } from "react-router";
import { localeFromPath } from "../shared/i18n/index.ts";
import { pagePath } from "../shared/i18n/pages.ts";

/** Member pages send visitors to the login page of their language, and back afterwards. */
export function loginRedirect(request: Request): Response {
  const url = new URL(request.url);
  const login = pagePath("login", localeFromPath(url.pathname));
  return redirect(`${login}?next=${encodeURIComponent(url.pathname + url.search)}`);
}
