/**
 * Administrators of the shared journey server, made by the global setup before it starts (the
 * embedded database belongs to one process). One per journey that needs one, so that journeys
 * never share a session.
 */
export const E2E_ADMINS = {
  editor: { email: "admin.editor@example.fr", password: "admin editor 1" },
  alerts: { email: "admin.alerts@example.fr", password: "admin alerts 1" },
  moderation: { email: "admin.moderation@example.fr", password: "admin moderation 1" },
  hostile: { email: "admin.hostile@example.fr", password: "admin hostile 1" },
  resultsImport: { email: "admin.results-import@example.fr", password: "admin results import 1" },
  results: { email: "admin.results@example.fr", password: "admin results 1" },
  communityPages: { email: "admin.community-pages@example.fr", password: "admin community pages 1" },
  renames: { email: "admin.renames@example.fr", password: "admin renames 1" },
  menus: { email: "admin.menus@example.fr", password: "admin menus 1" },
  posters: { email: "admin.posters@example.fr", password: "admin posters 1" },
  dashboard: { email: "admin.dashboard@example.fr", password: "admin dashboard 1" },
  users: { email: "admin.users@example.fr", password: "admin users 1" },
} as const;
