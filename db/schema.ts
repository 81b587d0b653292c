/** Gathers every domain's tables for drizzle-kit (migrations); the code imports each table from its feature. */

export * from "../features/accounts/accounts.tables.ts";
export * from "../features/activities/activities.tables.ts";
export * from "../features/alerts/alerts.tables.ts";
export * from "../features/comments/comments.tables.ts";
export * from "../features/editor/editor.tables.ts";
export * from "../features/engagement/engagement.tables.ts";
export * from "../features/events/event-access.tables.ts";
export * from "../features/events/event-detail.tables.ts";
export * from "../features/events/events.tables.ts";
export * from "../features/geo/geo.tables.ts";
export * from "../features/identity/identity.tables.ts";
export * from "../features/jobs/jobs.tables.ts";
export * from "../features/mail/mail.tables.ts";
export * from "../features/orders/orders.tables.ts";
export * from "../features/organizers/organizers.tables.ts";
export * from "../features/posters/posters.tables.ts";
export * from "../features/ratings/ratings.tables.ts";
export * from "../features/results/results.tables.ts";
export * from "../features/sports/sports.tables.ts";
export * from "../features/traffic/traffic.tables.ts";
