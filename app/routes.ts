import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";
import { LOCALES } from "../shared/constants.ts";
import { PAGES, type PageId } from "../shared/i18n/pages.ts";

const FILES: Record<PageId, string> = {
  home: "routes/home.tsx",
  page: "routes/page.tsx",
  event: "routes/event.tsx",
  landingSport: "routes/landing.tsx",
  landingRegion: "routes/landing.tsx",
  landingDepartment: "routes/landing.tsx",
  landingSportRegion: "routes/landing.tsx",
  login: "routes/login.tsx",
  register: "routes/register.tsx",
  forgotPassword: "routes/forgot-password.tsx",
  resetPassword: "routes/reset-password.tsx",
  verifyEmail: "routes/verify-email.tsx",
  signOut: "routes/sign-out.tsx",
  account: "routes/account.tsx",
  settings: "routes/settings.tsx",
  member: "routes/member.tsx",
  community: "routes/community.tsx",
  communityActivity: "routes/community-activity.tsx",
  communityMembers: "routes/community-members.tsx",
  myEvents: "routes/my-events.tsx",
  planning: "routes/planning.tsx",
  favorites: "routes/favorites.tsx",
  results: "routes/my-results.tsx",
  alerts: "routes/alerts.tsx",
  stravaActivity: "routes/strava-activity.tsx",
  activities: "routes/activities.tsx",
  activity: "routes/activity.tsx",
  posters: "routes/posters.tsx",
  posterNew: "routes/poster-creator.tsx",
  posterEdit: "routes/poster-creator.tsx",
  orders: "routes/orders.tsx",
  unsubscribe: "routes/unsubscribe.tsx",
  eventNew: "routes/event-editor.tsx",
  eventEdit: "routes/event-editor.tsx",
  resultsImport: "routes/results-import.tsx",
  admin: "routes/admin.tsx",
  adminEvents: "routes/admin-events.tsx",
  adminComments: "routes/admin-comments.tsx",
  adminActivities: "routes/admin-activities.tsx",
  adminResultClaims: "routes/admin-result-claims.tsx",
  adminOrders: "routes/admin-orders.tsx",
  adminLogs: "routes/admin-logs.tsx",
  adminUsers: "routes/admin-users.tsx",
  adminUser: "routes/admin-user.tsx",
  setup: "routes/setup.tsx",
};

/** The admin screens share one parent route (routes/admin-shell.tsx): the menu's counts, loaded once. */
const isAdminPage = (page: PageId) => page.startsWith("admin");

/** A page's route in one locale, with the id "<locale>.<page>". */
function localizedRoute(page: PageId, locale: (typeof LOCALES)[number]) {
  const pattern: string = PAGES[page][locale];
  const full = locale === "en" ? (pattern ? `en/${pattern}` : "en") : pattern;
  const id = `${locale}.${page}`;
  return full ? route(full, FILES[page], { id }) : index(FILES[page], { id });
}

const pages = Object.keys(FILES) as PageId[];

export default [
  ...pages
    .filter((page) => !isAdminPage(page))
    .flatMap((page) => LOCALES.map((locale) => localizedRoute(page, locale))),
  ...LOCALES.map((locale) =>
    layout(
      "routes/admin-shell.tsx",
      { id: `${locale}.adminShell` },
      pages.filter(isAdminPage).map((page) => localizedRoute(page, locale)),
    ),
  ),
  route("*", "routes/not-found.tsx", { id: "not-found" }),
] satisfies RouteConfig;
