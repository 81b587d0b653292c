import { index, type RouteConfig, route } from "@react-router/dev/routes";
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
  setup: "routes/setup.tsx",
};

/** Each page is declared once per locale with the id "<locale>.<page>". */
function localized(page: PageId) {
  return LOCALES.map((locale) => {
    const pattern: string = PAGES[page][locale];
    const full = locale === "en" ? (pattern ? `en/${pattern}` : "en") : pattern;
    const id = `${locale}.${page}`;
    return full ? route(full, FILES[page], { id }) : index(FILES[page], { id });
  });
}

export default [
  ...(Object.keys(FILES) as PageId[]).flatMap(localized),
  route("*", "routes/not-found.tsx", { id: "not-found" }),
] satisfies RouteConfig;
