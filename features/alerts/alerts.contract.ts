import { z } from "zod";
import { ALERT_KINDS } from "../../shared/constants.ts";

/** Saved searches a member may keep ("alert me"). */
export const MAX_SAVED_SEARCHES = 20;
export const ALERT_LABEL_MAX = 120;
/** Races listed in one digest mail; the mail says how many more there are. */
export const DIGEST_MAX_RACES = 10;

export const alertKindSchema = z.enum(ALERT_KINDS);

export const savedSearchSchema = z.object({
  id: z.number().int(),
  /** The canonical query string of the search page (`sport=trail&region=84`). */
  query: z.string(),
  label: z.string(),
  createdAt: z.string(),
  lastSentAt: z.string().nullable(),
});
export type SavedSearch = z.infer<typeof savedSearchSchema>;

export const alertsSchema = z.object({
  searches: z.array(savedSearchSchema),
  /** Mail kinds the member turned off. */
  muted: z.array(alertKindSchema),
  max: z.number().int(),
});
export type Alerts = z.infer<typeof alertsSchema>;

/** POST /api/user/alerts: the search page's query string (with or without "?") and a name for it. */
export const createAlertBodySchema = z.object({
  query: z.string().max(2000),
  label: z.string().trim().max(ALERT_LABEL_MAX).optional(),
});
export type CreateAlertBody = z.infer<typeof createAlertBodySchema>;

/** PUT /api/user/alerts/preferences: the kinds turned off (the others are on). */
export const alertPreferencesBodySchema = z.object({
  muted: z.array(alertKindSchema).max(ALERT_KINDS.length),
});
