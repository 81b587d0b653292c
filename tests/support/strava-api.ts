/**
 * A local HTTP server that plays Strava's documented API for the activities feature (never the
 * real network): OAuth authorize/token (authorization code and refresh token grants) and
 * deauthorize, `GET /api/v3/athlete/activities` with page/per_page/before/after,
 * `GET /api/v3/activities/{id}`, `GET /api/v3/activities/{id}/streams?keys=…&key_by_type=true`, and
 * `GET /api/v3/athlete` (401 once the member revoked the grant, as after a deauthorization), and
 * the application rate limits (15-minute windows from :00 and UTC days, reported in
 * X-RateLimit-Limit / X-RateLimit-Usage on every API answer, 429 beyond). Faults are shaped like
 * Strava's: `{ message, errors: [{ resource, field, code }] }`.
 *
 * Its clock can be the test's simulated one, so rate-limit windows pass without waiting.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeActivity = {
  id: number;
  name: string;
  sport_type: string;
  start_date: string;
  distance: number;
  moving_time: number;
  elapsed_time: number;
  total_elevation_gain: number;
  start_latlng: [number, number] | [];
  average_heartrate?: number;
  max_heartrate?: number;
  manual: boolean;
  /** Private to the athlete: listed only with activity:read_all. */
  private: boolean;
};

export type FakeStreams = {
  latlng: [number, number][];
  altitude: number[];
  time: number[];
  distance: number[];
  heartrate?: number[];
};

type Athlete = { id: number; firstname: string; lastname: string; activities: Map<number, FakeActivity> };
type Held = { athleteId: number; scope: string; expiresAt: number };

const SHORT_MS = 15 * 60_000;
const DAY_MS = 86_400_000;

const fault = (message: string, resource: string, field: string, code: string) => ({
  message,
  errors: [{ resource, field, code }],
});

/**
 * A run of `distanceKm` from (lat, lng) heading east then back, one sample every `stepS` seconds at
 * `paceSPerKm`, with rolling hills and, when asked, a heart rate.
 */
export function makeRunStreams(options: {
  lat: number;
  lng: number;
  distanceKm: number;
  paceSPerKm?: number;
  stepS?: number;
  heartRate?: boolean;
}): FakeStreams {
  const pace = options.paceSPerKm ?? 330;
  const step = options.stepS ?? 5;
  const total = options.distanceKm * 1000;
  const speed = 1000 / pace;
  const metresPerDegLng = 111_320 * Math.cos((options.lat * Math.PI) / 180);
  const out: FakeStreams = {
    latlng: [],
    altitude: [],
    time: [],
    distance: [],
    heartrate: options.heartRate ? [] : undefined,
  };
  for (let t = 0; ; t += step) {
    const d = Math.min(total, t * speed);
    // Out for half the distance, back for the other half, 30 m off the outbound line.
    const along = d <= total / 2 ? d : total - d;
    const side = d <= total / 2 ? 0 : 30;
    out.latlng.push([
      Number((options.lat + side / 111_320).toFixed(6)),
      Number((options.lng + along / metresPerDegLng).toFixed(6)),
    ]);
    out.altitude.push(Number((200 + 25 * Math.sin(along / 400)).toFixed(1)));
    out.time.push(t);
    out.distance.push(Number(d.toFixed(1)));
    out.heartrate?.push(140 + Math.round(10 * Math.sin(t / 300)));
    if (d >= total) break;
  }
  return out;
}

export async function startStravaApi(
  options: {
    clientId?: string;
    clientSecret?: string;
    shortLimit?: number;
    dailyLimit?: number;
    /** Milliseconds since the epoch: the simulated clock of the test (default Date.now). */
    now?: () => number;
    /** Seconds a new access token lives (Strava: 6 hours). */
    tokenLifetimeS?: number;
  } = {},
) {
  const client = { id: options.clientId ?? "4242", secret: options.clientSecret ?? "strava-test-secret" };
  const now = options.now ?? (() => Date.now());
  const limits = { short: options.shortLimit ?? 200, daily: options.dailyLimit ?? 2000 };
  let lifetimeS = options.tokenLifetimeS ?? 21_600;
  const athletes = new Map<number, Athlete>();
  /** Streams, or how to make them when asked (a bench's 1,000 activities need not sit in memory). */
  const streams = new Map<number, FakeStreams | (() => FakeStreams)>();
  const codes = new Map<string, { athleteId: number; scope: string; used: boolean }>();
  const accessTokens = new Map<string, Held>();
  const refreshTokens = new Map<string, { athleteId: number; scope: string }>();
  const usage = { window: 0, short: 0, day: 0, daily: 0 };
  /** 429 answers sent (forced ones included). */
  const refusals = { count: 0 };
  const requests: {
    method: string;
    path: string;
    query: Record<string, string>;
    form: Record<string, string>;
    /** When it came, by the fake's clock. */
    at: number;
  }[] = [];
  let grantScope: string | null = null;
  let nextAthlete: number | null = null;
  let forced429 = 0;

  const random = (bytes = 20) => randomBytes(bytes).toString("hex");

  /** Every token of the athlete stops working (a deauthorization, by us or on Strava's site). */
  function revokeGrant(athleteId: number) {
    for (const [key, value] of accessTokens) if (value.athleteId === athleteId) accessTokens.delete(key);
    for (const [key, value] of refreshTokens) if (value.athleteId === athleteId) refreshTokens.delete(key);
  }

  function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
    res.end(JSON.stringify(body));
  }

  /** Counts an API request; the headers to send, and whether Strava refuses it. */
  function rateLimit(): { headers: Record<string, string>; refused: boolean } {
    const at = now();
    const window = Math.floor(at / SHORT_MS);
    const day = Math.floor(at / DAY_MS);
    if (window !== usage.window) {
      usage.window = window;
      usage.short = 0;
    }
    if (day !== usage.day) {
      usage.day = day;
      usage.daily = 0;
    }
    // Strava counts refused requests too.
    usage.short++;
    usage.daily++;
    const refused = forced429 > 0 || usage.short > limits.short || usage.daily > limits.daily;
    if (forced429 > 0) forced429--;
    return {
      refused,
      headers: {
        "x-ratelimit-limit": `${limits.short},${limits.daily}`,
        "x-ratelimit-usage": `${usage.short},${usage.daily}`,
      },
    };
  }

  function holder(req: http.IncomingMessage): Held | null {
    const header = req.headers.authorization ?? "";
    const held = header.startsWith("Bearer ") ? accessTokens.get(header.slice(7)) : undefined;
    if (!held || held.expiresAt * 1000 <= now()) return null;
    return held;
  }

  function issue(athleteId: number, scope: string, withAthlete: boolean) {
    const accessToken = random();
    const refreshToken = random();
    const expiresAt = Math.floor(now() / 1000) + lifetimeS;
    accessTokens.set(accessToken, { athleteId, scope, expiresAt });
    refreshTokens.set(refreshToken, { athleteId, scope });
    const athlete = athletes.get(athleteId)!;
    return {
      token_type: "Bearer",
      expires_at: expiresAt,
      expires_in: lifetimeS,
      refresh_token: refreshToken,
      access_token: accessToken,
      ...(withAthlete
        ? { athlete: { id: athlete.id, resource_state: 2, firstname: athlete.firstname, lastname: athlete.lastname } }
        : {}),
    };
  }

  function summary(activity: FakeActivity, athleteId: number) {
    return { resource_state: 2, athlete: { id: athleteId, resource_state: 1 }, type: activity.sport_type, ...activity };
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const form = String(req.headers["content-type"]).startsWith("application/x-www-form-urlencoded")
      ? Object.fromEntries(new URLSearchParams(raw))
      : {};
    requests.push({
      method: req.method ?? "GET",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      form,
      at: now(),
    });
    const path = url.pathname;

    if (path === "/oauth/authorize") {
      const q = url.searchParams;
      if (q.get("client_id") !== client.id)
        return send(res, 400, fault("Bad Request", "Application", "client_id", "invalid"));
      const back = new URL(q.get("redirect_uri") ?? "");
      const state = q.get("state");
      if (state !== null) back.searchParams.set("state", state);
      const athleteId = nextAthlete ?? [...athletes.keys()][0];
      if (athleteId === undefined) {
        back.searchParams.set("error", "access_denied");
        res.writeHead(302, { location: back.href });
        return res.end();
      }
      const scope = grantScope ?? q.get("scope") ?? "read";
      const code = random();
      codes.set(code, { athleteId, scope, used: false });
      back.searchParams.set("code", code);
      back.searchParams.set("scope", scope);
      res.writeHead(302, { location: back.href });
      return res.end();
    }

    if (path === "/oauth/token" && req.method === "POST") {
      if (form.client_id !== client.id || form.client_secret !== client.secret)
        return send(res, 401, fault("Authorization Error", "Application", "client_secret", "invalid"));
      if (form.grant_type === "authorization_code") {
        const issued = codes.get(form.code ?? "");
        if (!issued || issued.used) return send(res, 400, fault("Bad Request", "AuthorizationCode", "code", "invalid"));
        issued.used = true;
        return send(res, 200, issue(issued.athleteId, issued.scope, true));
      }
      if (form.grant_type === "refresh_token") {
        const held = refreshTokens.get(form.refresh_token ?? "");
        if (!held) return send(res, 400, fault("Bad Request", "RefreshToken", "refresh_token", "invalid"));
        refreshTokens.delete(form.refresh_token ?? "");
        return send(res, 200, issue(held.athleteId, held.scope, false));
      }
      return send(res, 400, fault("Bad Request", "Application", "grant_type", "invalid"));
    }

    if (path === "/oauth/deauthorize" && req.method === "POST") {
      const token = form.access_token ?? url.searchParams.get("access_token") ?? "";
      const held = accessTokens.get(token);
      if (!held) return send(res, 401, fault("Authorization Error", "Athlete", "access_token", "invalid"));
      revokeGrant(held.athleteId);
      return send(res, 200, { access_token: token });
    }

    if (path.startsWith("/api/v3/")) {
      const limit = rateLimit();
      if (limit.refused) {
        refusals.count++;
        return send(res, 429, fault("Rate Limit Exceeded", "Application", "rate limit", "exceeded"), limit.headers);
      }
      const held = holder(req);
      if (!held)
        return send(res, 401, fault("Authorization Error", "Athlete", "access_token", "invalid"), limit.headers);
      const athlete = athletes.get(held.athleteId)!;
      if (path === "/api/v3/athlete") {
        return send(
          res,
          200,
          { id: athlete.id, resource_state: 2, firstname: athlete.firstname, lastname: athlete.lastname },
          limit.headers,
        );
      }
      const readAll = held.scope.split(",").includes("activity:read_all");
      const visible = (a: FakeActivity) => !a.private || readAll;
      if (path === "/api/v3/athlete/activities") {
        if (!held.scope.split(",").some((s) => s === "activity:read" || s === "activity:read_all"))
          return send(
            res,
            401,
            fault("Authorization Error", "AccessToken", "activity:read_permission", "missing"),
            limit.headers,
          );
        const q = url.searchParams;
        const page = Math.max(1, Number(q.get("page") ?? 1));
        const perPage = Math.min(200, Math.max(1, Number(q.get("per_page") ?? 30)));
        const before = q.has("before") ? Number(q.get("before")) * 1000 : Number.POSITIVE_INFINITY;
        const after = q.has("after") ? Number(q.get("after")) * 1000 : Number.NEGATIVE_INFINITY;
        const list = [...athlete.activities.values()]
          .filter(visible)
          .filter((a) => Date.parse(a.start_date) < before && Date.parse(a.start_date) > after)
          .sort((a, b) => Date.parse(b.start_date) - Date.parse(a.start_date));
        // With only `after`, Strava lists oldest first.
        if (q.has("after") && !q.has("before")) list.reverse();
        const slice = list.slice((page - 1) * perPage, page * perPage);
        return send(
          res,
          200,
          slice.map((a) => summary(a, athlete.id)),
          limit.headers,
        );
      }
      const match = /^\/api\/v3\/activities\/(\d+)(\/streams)?$/.exec(path);
      if (match) {
        const activity = athlete.activities.get(Number(match[1]));
        if (!activity || !visible(activity))
          return send(res, 404, fault("Record Not Found", "Activity", "id", "not found"), limit.headers);
        if (!match[2]) return send(res, 200, { ...summary(activity, athlete.id), resource_state: 3 }, limit.headers);
        const stored = streams.get(activity.id);
        const data = typeof stored === "function" ? stored() : stored;
        if (!data) return send(res, 404, fault("Record Not Found", "Stream", "id", "not found"), limit.headers);
        const keys = new Set((url.searchParams.get("keys") ?? "").split(","));
        // Strava always sends distance along with the asked types.
        keys.add("distance");
        const out: Record<string, unknown> = {};
        for (const key of keys) {
          const series = (data as Record<string, unknown[] | undefined>)[key];
          if (!series) continue;
          out[key] = { data: series, series_type: "distance", original_size: series.length, resolution: "high" };
        }
        return send(
          res,
          200,
          url.searchParams.get("key_by_type") === "true"
            ? out
            : Object.entries(out).map(([type, s]) => ({ type, ...(s as object) })),
          limit.headers,
        );
      }
      return send(res, 404, fault("Record Not Found", "Path", "path", "not found"), limit.headers);
    }
    return send(res, 404, fault("Record Not Found", "Path", "path", "not found"));
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      handle(req, res, Buffer.concat(chunks).toString("utf8")).catch((error: unknown) =>
        send(res, 500, { message: String(error) }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    client,
    requests,
    usage,
    env: {
      STRAVA_CLIENT_ID: client.id,
      STRAVA_CLIENT_SECRET: client.secret,
      STRAVA_AUTHORIZATION_URL: `${url}/oauth/authorize`,
      STRAVA_TOKEN_URL: `${url}/oauth/token`,
      STRAVA_DEAUTHORIZE_URL: `${url}/oauth/deauthorize`,
      STRAVA_API_URL: `${url}/api/v3`,
    },
    addAthlete(id: number, firstname = "Lou", lastname = "Runner") {
      athletes.set(id, { id, firstname, lastname, activities: new Map() });
    },
    /** 429 answers sent so far. */
    get refused() {
      return refusals.count;
    },
    /** `activityStreams` may be a function: the streams are then made on each request for them. */
    addActivity(athleteId: number, activity: FakeActivity, activityStreams?: FakeStreams | (() => FakeStreams)) {
      athletes.get(athleteId)!.activities.set(activity.id, activity);
      if (activityStreams) streams.set(activity.id, activityStreams);
    },
    removeActivity(athleteId: number, id: number) {
      athletes.get(athleteId)?.activities.delete(id);
    },
    /** The next authorisations sign in this athlete (default: the first added). */
    signInAs(athleteId: number) {
      nextAthlete = athleteId;
    },
    /** The scope the member ticks on Strava's page (default: what was asked). */
    grantScope(scope: string | null) {
      grantScope = scope;
    },
    setTokenLifetime(seconds: number) {
      lifetimeS = seconds;
    },
    force429(count = 1) {
      forced429 = count;
    },
    /** The athlete revokes Dossard on Strava's settings page: every token of theirs stops working. */
    revoke: (athleteId: number) => revokeGrant(athleteId),
    /** Whether an access token still works (deauthorized grants do not). */
    tokenValid: (token: string) => accessTokens.has(token),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
export type StravaApi = Awaited<ReturnType<typeof startStravaApi>>;
