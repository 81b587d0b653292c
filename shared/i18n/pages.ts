import type { Locale } from "../constants.ts";

/**
 * Page paths by locale. French pages live at the root, English ones under /en with English words,
 * so a page's alternate in the other language is found from its route id and params.
 */
export const PAGES = {
  home: { fr: "", en: "" },
  page: { fr: "page/:slug", en: "page/:slug" },
  event: { fr: "course/:slug", en: "race/:slug" },
  landingSport: { fr: "courses/:sport", en: "races/:sport" },
  landingRegion: { fr: "courses/region/:region", en: "races/region/:region" },
  landingDepartment: { fr: "courses/departement/:department", en: "races/department/:department" },
  landingSportRegion: { fr: "courses/:sport/:region", en: "races/:sport/:region" },
  login: { fr: "login", en: "login" },
  register: { fr: "inscription", en: "register" },
  forgotPassword: { fr: "mot-de-passe-oublie", en: "forgot-password" },
  resetPassword: { fr: "nouveau-mot-de-passe", en: "reset-password" },
  verifyEmail: { fr: "user/verification", en: "user/verification" },
  signOut: { fr: "deconnexion", en: "sign-out" },
  account: { fr: "user/profil", en: "user/profile" },
  settings: { fr: "user/parametres", en: "user/settings" },
  member: { fr: "membre/:slug", en: "member/:slug" },
  community: { fr: "communaute", en: "community" },
  communityActivity: { fr: "communaute/activite", en: "community/activity" },
  communityMembers: { fr: "communaute/membres", en: "community/members" },
  myEvents: { fr: "user/evenements", en: "user/events" },
  planning: { fr: "user/planning", en: "user/planning" },
  favorites: { fr: "user/favoris", en: "user/favourites" },
  results: { fr: "user/resultats", en: "user/results" },
  alerts: { fr: "user/alertes", en: "user/alerts" },
  // The spec's named routes (same words in both languages, like user/planning).
  stravaActivity: { fr: "user/activity/strava", en: "user/activity/strava" },
  activities: { fr: "user/activities/:type?", en: "user/activities/:type?" },
  activity: { fr: "user/activity/:id?/:action?", en: "user/activity/:id?/:action?" },
  posters: { fr: "user/posters", en: "user/posters" },
  posterNew: { fr: "poster/nouveau", en: "poster/new" },
  posterEdit: { fr: "user/poster/:id", en: "user/poster/:id" },
  orders: { fr: "user/commandes", en: "user/orders" },
  unsubscribe: { fr: "alertes/desabonnement", en: "alerts/unsubscribe" },
  eventNew: { fr: "user/evenement/nouveau", en: "user/event/new" },
  eventEdit: { fr: "user/evenement/:id", en: "user/event/:id" },
  resultsImport: { fr: "user/evenement/:id/resultats", en: "user/event/:id/results" },
  admin: { fr: "admin", en: "admin" },
  adminEvents: { fr: "admin/evenements", en: "admin/events" },
  adminComments: { fr: "admin/commentaires", en: "admin/comments" },
  adminActivities: { fr: "admin/activities", en: "admin/activities" },
  adminResultClaims: { fr: "admin/resultats", en: "admin/results" },
  adminOrders: { fr: "admin/commandes", en: "admin/orders" },
  adminLogs: { fr: "admin/journaux", en: "admin/logs" },
  adminUsers: { fr: "admin/utilisateurs", en: "admin/users" },
  adminUser: { fr: "admin/utilisateurs/:id", en: "admin/users/:id" },
  setup: { fr: "installation/:token", en: "setup/:token" },
} as const satisfies Record<string, Record<Locale, string>>;
export type PageId = keyof typeof PAGES;

/** Full path of a page in a locale, with its :params filled. */
export function pagePath(page: PageId, locale: Locale, params: Record<string, string | number> = {}): string {
  const pattern: string = PAGES[page][locale];
  const filled = pattern.replace(/:(\w+)\??/g, (_, name: string) => encodeURIComponent(String(params[name] ?? "")));
  const clean = filled.replace(/\/+$/, "");
  if (locale === "en") return clean ? `/en/${clean}` : "/en";
  return `/${clean}`;
}

/** The login page that sends the visitor back to `back` (a path on this site) once signed in. */
export function loginHref(locale: Locale, back: string): string {
  return `${pagePath("login", locale)}?next=${encodeURIComponent(back)}`;
}

/** Route ids are "<locale>.<page>" (see app/routes.ts). */
export function parseRouteId(id: string): { locale: Locale; page: PageId } | null {
  const [locale, page] = id.split(".");
  if ((locale === "fr" || locale === "en") && page && page in PAGES) return { locale, page: page as PageId };
  return null;
}
