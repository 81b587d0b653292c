/**
 * Strava's API for activities, at the addresses of the configuration (the real Strava by default,
 * tests/support/strava-api.ts in tests): OAuth with the `activity:read_all` scope (a connection of
 * its own, not the sign-in), token refresh, the athlete (is the grant still there?), the athlete's
 * activities page by page, one activity, its streams, and deauthorization. Every /api/v3 request first takes a unit of the shared rate budget
 * (rate-budget.server.ts) and reports Strava's usage headers back to it; a 429 becomes RateLimited.
 * Errors never carry a token.
 */
import { z } from "zod";
import type { Config } from "../../platform/config.server.ts";
import { type RateBudget, RateLimited } from "./rate-budget.server.ts";

export const STRAVA_ACTIVITY_SCOPE = "activity:read_all";
/** `read` comes with every grant; `activity:read_all` includes private activities (the member's own page). */
export const STRAVA_SCOPES = ["read", STRAVA_ACTIVITY_SCOPE];
export const STRAVA_TIMEOUT_MS = 15_000;
/** Activities asked per page of history (Strava allows up to 200; 50 keeps one page's work short). */
export const STRAVA_PAGE_SIZE = 50;
/** A token this close to its expiry is refreshed before use. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

export class StravaError extends Error {
  override name = "StravaError";
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(`strava: ${reason}`);
  }
  /** The grant is gone (revoked at Strava, refresh token refused). */
  get unauthorized(): boolean {
    return this.status === 401 || this.reason.includes("invalid_grant");
  }
  /**
   * Strava says the member's grant is gone: their token or refresh token refused, not our
   * application's credentials (a wrong client secret must not read as every member leaving).
   */
  get grantRevoked(): boolean {
    return this.unauthorized && !this.reason.startsWith("Application ");
  }
  get notFound(): boolean {
    return this.status === 404;
  }
}

const stravaId = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]);
const athleteSchema = z.object({ id: stravaId });

const tokenSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_at: z.number().int(),
  athlete: athleteSchema.optional(),
});

export type StravaTokens = { accessToken: string; refreshToken: string; expiresAt: Date; athleteId: number | null };

const latlng = z.tuple([z.number(), z.number()]);

/** The summary (and detailed) activity fields Dossard reads. */
export const stravaActivitySchema = z.object({
  id: stravaId,
  name: z.string().nullish(),
  type: z.string().nullish(),
  sport_type: z.string().nullish(),
  start_date: z.string(),
  distance: z.number().nullish(),
  moving_time: z.number().nullish(),
  elapsed_time: z.number().nullish(),
  total_elevation_gain: z.number().nullish(),
  start_latlng: z.union([latlng, z.array(z.number()).length(0)]).nullish(),
  average_heartrate: z.number().nullish(),
  max_heartrate: z.number().nullish(),
  manual: z.boolean().nullish(),
  athlete: z.object({ id: z.union([z.number(), z.string()]) }).nullish(),
});
export type StravaActivity = z.infer<typeof stravaActivitySchema>;

const stream = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) }).optional();
const streamsSchema = z.object({
  latlng: stream(latlng),
  altitude: stream(z.number().nullable()),
  time: stream(z.number()),
  heartrate: stream(z.number().nullable()),
  distance: stream(z.number()),
});
export type StravaStreams = {
  latlng?: [number, number][];
  altitude?: (number | null)[];
  time?: number[];
  heartrate?: (number | null)[];
  distance?: number[];
};

function faultReason(status: number, body: unknown): string {
  const errors = (body as { errors?: unknown } | null)?.errors;
  const first = Array.isArray(errors) ? (errors[0] as { resource?: unknown; field?: unknown; code?: unknown }) : null;
  return first ? `${String(first.resource)} ${String(first.field)} ${String(first.code)}` : `status ${status}`;
}

export function stravaClient(
  config: Pick<
    Config,
    | "STRAVA_CLIENT_ID"
    | "STRAVA_CLIENT_SECRET"
    | "STRAVA_AUTHORIZATION_URL"
    | "STRAVA_TOKEN_URL"
    | "STRAVA_API_URL"
    | "STRAVA_DEAUTHORIZE_URL"
  >,
  budget: RateBudget,
  options: { timeoutMs?: number } = {},
) {
  const timeoutMs = options.timeoutMs ?? STRAVA_TIMEOUT_MS;

  async function send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, {
        ...init,
        headers: { Accept: "application/json", "User-Agent": "dossard", ...init.headers },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new StravaError(0, (error as { name?: string }).name === "TimeoutError" ? "timeout" : "network");
    }
  }

  async function json(response: Response): Promise<unknown> {
    return response.json().catch(() => {
      throw new StravaError(response.status, "body not JSON");
    });
  }

  async function tokenRequest(fields: Record<string, string>): Promise<StravaTokens> {
    const response = await send(config.STRAVA_TOKEN_URL, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        client_id: config.STRAVA_CLIENT_ID,
        client_secret: config.STRAVA_CLIENT_SECRET,
        ...fields,
      }).toString(),
    });
    const body = await json(response);
    if (response.status !== 200) {
      const reason = faultReason(response.status, body);
      // A refused code or refresh token: Strava names the grant's resource ("RefreshToken invalid").
      throw new StravaError(response.status, /Token|Code/.test(reason) ? `invalid_grant ${reason}` : reason);
    }
    const parsed = tokenSchema.safeParse(body);
    if (!parsed.success) throw new StravaError(response.status, "unexpected token answer");
    return {
      accessToken: parsed.data.access_token,
      refreshToken: parsed.data.refresh_token,
      expiresAt: new Date(parsed.data.expires_at * 1000),
      athleteId: parsed.data.athlete ? Number(parsed.data.athlete.id) : null,
    };
  }

  /** A GET under /api/v3, within the budget. */
  async function api(path: string, accessToken: string, reserve: number): Promise<unknown> {
    await budget.take({ reserve });
    const response = await send(`${config.STRAVA_API_URL}${path}`, {
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    const limited = await budget.observe(response.headers, response.status);
    if (limited) {
      await response.body?.cancel();
      throw limited;
    }
    const body = await json(response);
    if (response.status !== 200) throw new StravaError(response.status, faultReason(response.status, body));
    return body;
  }

  return {
    enabled: config.STRAVA_CLIENT_ID !== "",

    authorizationUrl(state: string, redirectUri: string): URL {
      const url = new URL(config.STRAVA_AUTHORIZATION_URL);
      url.searchParams.set("client_id", config.STRAVA_CLIENT_ID);
      url.searchParams.set("redirect_uri", redirectUri);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("approval_prompt", "auto");
      url.searchParams.set("scope", STRAVA_SCOPES.join(","));
      url.searchParams.set("state", state);
      return url;
    },

    exchangeCode: (code: string) => tokenRequest({ code, grant_type: "authorization_code" }),

    refresh: (refreshToken: string) => tokenRequest({ refresh_token: refreshToken, grant_type: "refresh_token" }),

    /** Revokes the grant at Strava; a token Strava no longer knows counts as revoked. */
    async deauthorize(accessToken: string): Promise<void> {
      const response = await send(config.STRAVA_DEAUTHORIZE_URL, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ access_token: accessToken }).toString(),
      });
      await response.body?.cancel();
      if (response.status !== 200 && response.status !== 401) throw new StravaError(response.status, "deauthorize");
    },

    /** One page of the athlete's activities, newest first (`before`: epoch seconds, exclusive). */
    async activities(
      accessToken: string,
      query: { page: number; perPage?: number; after?: number; before?: number },
      reserve = 0,
    ): Promise<StravaActivity[]> {
      const params = new URLSearchParams({
        page: String(query.page),
        per_page: String(query.perPage ?? STRAVA_PAGE_SIZE),
      });
      if (query.after !== undefined) params.set("after", String(query.after));
      if (query.before !== undefined) params.set("before", String(query.before));
      const body = await api(`/athlete/activities?${params}`, accessToken, reserve);
      if (!Array.isArray(body)) throw new StravaError(200, "activities not a list");
      // One odd activity is skipped, not the whole page.
      return body.flatMap((item) => {
        const parsed = stravaActivitySchema.safeParse(item);
        return parsed.success ? [parsed.data] : [];
      });
    },

    /** The athlete the token belongs to: answers while the grant holds, 401 once it is revoked. */
    async athlete(accessToken: string, reserve = 0): Promise<{ id: number }> {
      const parsed = athleteSchema.safeParse(await api("/athlete", accessToken, reserve));
      if (!parsed.success) throw new StravaError(200, "unexpected athlete");
      return { id: parsed.data.id };
    },

    async activity(accessToken: string, id: number, reserve = 0): Promise<StravaActivity> {
      const parsed = stravaActivitySchema.safeParse(await api(`/activities/${id}`, accessToken, reserve));
      if (!parsed.success) throw new StravaError(200, "unexpected activity");
      return parsed.data;
    },

    async streams(accessToken: string, id: number, reserve = 0): Promise<StravaStreams> {
      const body = await api(
        `/activities/${id}/streams?keys=latlng,altitude,time,heartrate&key_by_type=true`,
        accessToken,
        reserve,
      );
      const parsed = streamsSchema.safeParse(body);
      if (!parsed.success) throw new StravaError(200, "unexpected streams");
      const out: StravaStreams = {};
      for (const key of ["latlng", "altitude", "time", "heartrate", "distance"] as const) {
        const data = parsed.data[key]?.data;
        if (data) (out as Record<string, unknown>)[key] = data;
      }
      return out;
    },
  };
}
export type StravaClient = ReturnType<typeof stravaClient>;
export { RateLimited };
