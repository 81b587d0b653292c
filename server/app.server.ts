import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import fastifyCompress from "@fastify/compress";
import fastifyStatic from "@fastify/static";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import { sql } from "drizzle-orm";
import Fastify, { type FastifyInstance, type FastifyRequest, LogController, type RouteOptions } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import helmet from "helmet";
import { isbot } from "isbot";
import type { ServerBuild } from "react-router";
import { accountsRoutes } from "../features/accounts/accounts.routes.server.ts";
import type { SiteSetup } from "../features/accounts/components/AdminWelcome.tsx";
import { firstAdminRoutes } from "../features/accounts/first-admin.routes.server.ts";
import { oauthRoutes } from "../features/accounts/oauth/oauth.routes.server.ts";
import { enabledProviders } from "../features/accounts/oauth/providers.server.ts";
import { registerActivityJobs } from "../features/activities/activities.jobs.server.ts";
import { activitiesRoutes } from "../features/activities/activities.routes.server.ts";
import { adminRoutes } from "../features/admin/admin.routes.server.ts";
import { registerAlertJobs } from "../features/alerts/alerts.jobs.server.ts";
import { alertsRoutes } from "../features/alerts/alerts.routes.server.ts";
import { commentsRoutes } from "../features/comments/comments.routes.server.ts";
import { communityRoutes } from "../features/community/community.routes.server.ts";
import { editorRoutes } from "../features/editor/editor.routes.server.ts";
import { engagementRoutes } from "../features/engagement/engagement.routes.server.ts";
import { requireTargetEditor } from "../features/events/event-access.server.ts";
import { eventDetailRoutes } from "../features/events/event-detail.routes.server.ts";
import { geoRoutes } from "../features/geo/geo.routes.server.ts";
import { access, installAccessRules, withAccess } from "../features/identity/access.server.ts";
import { cookieSecret, installAuth } from "../features/identity/auth.server.ts";
import { SESSION_COOKIE } from "../features/identity/sessions.server.ts";
import { sessionUser } from "../features/identity/users.server.ts";
import { illustrationRoutes } from "../features/illustrations/illustrations.routes.server.ts";
import { createJobQueue, type JobQueue } from "../features/jobs/jobs.service.server.ts";
import { createLogFile } from "../features/logs/log-file.server.ts";
import { logsRoutes } from "../features/logs/logs.routes.server.ts";
import { createMailService } from "../features/mail/mail.service.server.ts";
import { mailLogRoutes } from "../features/mail/mail-log.routes.server.ts";
import { mapsRoutes, siteBasemap } from "../features/maps/maps.routes.server.ts";
import { eventImageRoutes } from "../features/media/images.routes.server.ts";
import { shareImageRoutes } from "../features/media/share-images.routes.server.ts";
import { type FileStorage, localStorage } from "../features/media/storage.server.ts";
import { ordersRoutes } from "../features/orders/orders.routes.server.ts";
import { stripeGateway } from "../features/orders/stripe.server.ts";
import { organizerRoutes } from "../features/organizers/organizer.routes.server.ts";
import { basemapRoutes } from "../features/posters/basemap/basemap.routes.server.ts";
import { basemapSources } from "../features/posters/basemap/basemap.server.ts";
import { openDataSource } from "../features/posters/basemap/opendata.server.ts";
import { postersRoutes } from "../features/posters/posters.routes.server.ts";
import { POSTER_EXPORT_QUEUE } from "../features/posters/posters.service.server.ts";
import { ratingsRoutes } from "../features/ratings/ratings.routes.server.ts";
import { resultsImportRoutes } from "../features/results/import/results-import.routes.server.ts";
import { resultsRoutes } from "../features/results/results.routes.server.ts";
import { eventGroupsRoutes } from "../features/search/groups.routes.server.ts";
import { searchRoutes } from "../features/search/search.routes.server.ts";
import { seoRoutes } from "../features/seo/seo.routes.server.ts";
import { referenceRoutes } from "../features/sports/reference.routes.server.ts";
import { trackUploadRoutes } from "../features/tracks/tracks.routes.server.ts";
import { createTrafficMeter, referrerHostOf, viewedPath } from "../features/traffic/traffic-meter.ts";
import type { Config } from "../platform/config.server.ts";
import type { Database } from "../platform/db/client.server.ts";
import { errorHandlers, frameworkErrors } from "../platform/http/errors.server.ts";
import { refuseUnstorableInput } from "../platform/http/input-guard.server.ts";
import { createPageCache, type PageCache } from "../platform/http/page-cache.server.ts";
import { LOCALES } from "../shared/constants.ts";
import { CSP_DIRECTIVES } from "../shared/csp.ts";
import { pageBundleAsset } from "../shared/i18n/page-bundle.server.ts";
import { PAGES } from "../shared/i18n/pages.ts";
import { configurePublicOrigin } from "../shared/public-url.ts";
import { LEGAL_SETTING_NAMES, type LegalSettings } from "../shared/static-pages.ts";
import { crossSiteGuard } from "./cross-site.server.ts";
import {
  humanLogStream,
  type LogStream,
  loggedPath,
  loggerOptions,
  requestLogLine,
  teeLogStream,
} from "./logging.server.ts";
import { swaggerOptions } from "./openapi.server.ts";
import { pageApi } from "./page-api.server.ts";
import { reactRouterPlugin } from "./react-router.server.ts";
import { createServices, type Services } from "./services.server.ts";
import { staticFilesPlugin } from "./static-files.server.ts";

declare module "fastify" {
  interface FastifyInstance {
    services: Services;
    config: Config;
    jobs: JobQueue;
    storage: FileStorage;
    /** Anonymous pages kept whole in memory; absent without a build or with PAGE_CACHE_SECONDS=0. */
    pageCache?: PageCache;
  }
}

export type BuildOptions = {
  config: Config;
  database: Database;
  /** The React Router server build; absent in API tests. */
  build?: ServerBuild;
  /** Folder of the built client assets (build/client). */
  clientDir?: string;
  clock?: () => Date;
  logger?: boolean | object;
  /** Run queued jobs (mail…) in this process; tests drain the queue themselves when false. */
  runJobs?: boolean;
  /** Told of every route as it is added (tests enumerate the app's own route table with it). */
  onRoute?: (route: RouteOptions) => void;
};

/** The nightly job: unattached track uploads purged, next year's editions created. */
export const EDITION_COPY_QUEUE = "events.copy-editions";

/** Writes that never change a public page: signing in or up, codes, password recovery. */
const PAGE_NEUTRAL_WRITES = new Set([
  "/api/register",
  "/api/login",
  "/api/logout",
  "/api/user/send-verify",
  "/api/user/verify-account",
  "/api/recover-password",
  "/api/reset-password",
  // A member's own lists: the public pages' counts catch up within PAGE_CACHE_SECONDS.
  "/api/user/favorite/:id",
  "/api/user/calendar/:id",
  "/api/user/calendar/feed",
]);

const EVENT_PAGE = new RegExp(
  `^/(?:${PAGES.event.fr.replace(":slug", "([a-z0-9-]{1,200})")}|en/${PAGES.event.en.replace(":slug", "([a-z0-9-]{1,200})")})(?:\\.data)?(?:\\?|$)`,
);

/** The slug of an event page's address (either language, a document or a navigation's data), or null. */
export function eventSlugOf(url: string): string | null {
  const match = EVENT_PAGE.exec(url);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/**
 * Whether a successful request may change a public page (then the page cache is cleared). A track
 * uploaded for a course not saved yet (`/api/upload/track/0`) shows on no page until the event is saved.
 */
export function changesPublicPages(
  request: Pick<FastifyRequest, "method" | "params"> & { routeOptions: { url?: string } },
): boolean {
  const method = request.method;
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return false;
  const url = request.routeOptions.url ?? "";
  if (url === "/api/upload/track/:id") return Number((request.params as { id?: unknown } | undefined)?.id) !== 0;
  return !PAGE_NEUTRAL_WRITES.has(url);
}

/** The next 03:00 UTC (4 or 5 a.m. in France), when the site is quiet. */
export function nextNightlyRun(now: Date): Date {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 3));
  if (next <= now) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

/**
 * Next year's editions are created by a nightly job, which first deletes the track uploads never
 * attached to a course within a day (tracksService.purgeUnattached). Only servers that run jobs
 * schedule it; the job schedules its next night itself.
 */
function scheduleEditionCopies(app: FastifyInstance, jobs: JobQueue, clock: () => Date, schedule: boolean) {
  jobs.register(EDITION_COPY_QUEUE, async () => {
    // The next night is booked first (once: this run counts as active), so a failing run never
    // stops the schedule.
    if ((await jobs.active(EDITION_COPY_QUEUE)) <= 1) {
      await jobs.enqueue(EDITION_COPY_QUEUE, {}, { runAt: nextNightlyRun(new Date(clock().getTime() + 60_000)) });
    }
    // First, and on its own: a failing copy must not keep abandoned uploads forever.
    try {
      const purged = await app.services.tracks.purgeUnattached();
      if (purged) app.log.info({ purged }, "unattached track uploads deleted");
    } catch (error) {
      app.log.error({ err: error }, "purging unattached track uploads failed");
    }
    await app.services.traffic
      .purge()
      .catch((error: unknown) => app.log.error({ err: error }, "purging traffic failed"));
    const created = await app.services.editor.copyDueEditions();
    if (created.length) {
      app.pageCache?.clear();
      app.services.search.invalidate();
    }
    if (created.length) app.log.info({ created }, "next editions created");
  });
  if (!schedule) return;
  app.addHook("onReady", async () => {
    if ((await jobs.active(EDITION_COPY_QUEUE)) === 0) {
      await jobs.enqueue(EDITION_COPY_QUEUE, {}, { runAt: nextNightlyRun(clock()) });
    }
  });
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  configurePublicOrigin(config.PUBLIC_URL);
  // LOG_FORMAT=human (the default): a request is one line a person reads ("GET /course/x 200 12 ms");
  // LOG_FORMAT=json: Fastify's JSON records, for log tools.
  const readable = config.LOG_FORMAT === "human" && Boolean(options.logger);
  const given = options.logger && options.logger !== true ? (options.logger as { stream?: LogStream }) : {};
  // The log kept on disk for the admin's Logs screen (features/logs): every record the console
  // gets, redacted the same way, and one line per request; rotated under LOG_DIR.
  const logFile =
    options.logger && config.LOG_FILE_COUNT > 0
      ? createLogFile({
          dir: config.logDir,
          maxBytes: config.LOG_FILE_SIZE_MB * 1024 * 1024,
          files: config.LOG_FILE_COUNT,
        })
      : null;
  const consoleStream = readable ? humanLogStream(given.stream ?? process.stdout) : given.stream;
  const stream = logFile ? teeLogStream(consoleStream ?? process.stdout, logFile) : consoleStream;
  const app = Fastify({
    // Whoever turns logging on gets the redaction and scrubbing of server/logging.server.ts.
    logger: options.logger ? { ...loggerOptions(), ...given, ...(stream ? { stream } : {}) } : false,
    // Request ids unique across restarts and instances: the admin searches the logs by them.
    genReqId: () => randomUUID().replaceAll("-", "").slice(0, 16),
    // Fastify's two JSON records per request give way to the one line below.
    ...(readable ? { logController: new LogController({ disableRequestLogging: true }) } : {}),
    // X-Forwarded-* only from the proxies named in TRUSTED_PROXIES: request.ip is then the
    // right-most address that is not one of them (per-address limits, sessions, logs).
    trustProxy: config.TRUSTED_PROXIES.length ? config.TRUSTED_PROXIES : false,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors,
  });
  if (options.onRoute) app.addHook("onRoute", options.onRoute);
  if (logFile) {
    app.addHook("onResponse", async (request, reply) => {
      // The build's files and uploaded media answered as asked are not the application's story
      // (a page brings some forty): only their failures are kept.
      const file = request.routeOptions.config?.staticFile || request.routeOptions.url === "/media/*";
      if (file && reply.statusCode < 400) return;
      logFile.write(
        requestLogLine({
          time: Date.now(),
          requestId: request.id,
          userId: request.authSeen()?.user.id ?? null,
          method: request.method,
          route: request.routeOptions.url,
          url: request.url,
          status: reply.statusCode,
          ms: reply.elapsedTime,
        }),
      );
    });
    app.addHook("onClose", async () => logFile.close());
  }
  if (readable) {
    app.addHook("onResponse", async (request, reply) => {
      const path = loggedPath(request.url);
      const ms = Math.round(reply.elapsedTime);
      // A person's terminal shows server errors; every request only at LOG_LEVEL=debug.
      const level = reply.statusCode >= 500 ? "warn" : "debug";
      request.log[level]({ request: { method: request.method, path, status: reply.statusCode, ms } }, "request");
    });
  }
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate("config", config);
  const clock = options.clock ?? (() => new Date());
  const jobs = createJobQueue(database.db, {
    clock,
    log: (message, error) => (error ? app.log.error({ err: error }, message) : app.log.info(message)),
  });
  const mail = createMailService({ db: database.db, jobs, config, clock });
  mail.register();
  app.decorate("jobs", jobs);
  const storage = localStorage(path.join(config.dataDir, "uploads"));
  app.decorate("storage", storage);
  // With a page build (the site, not the API tests), whole search answers are reused like pages.
  const cacheMs = options.build ? config.PAGE_CACHE_SECONDS * 1000 : 0;
  const secret = cookieSecret(config.SESSION_SECRET, config.dataDir);
  // PMTiles archives are opened and checked now: one that cannot serve is logged and its styles disabled.
  const posterBasemap = basemapSources(config, { log: (message) => app.log.warn(message) });
  await posterBasemap.ready;
  // One offline base map for the site's maps and the posters' towns and borders (decision 038).
  const basemap = siteBasemap(config.MAP_DATA_DIR, () => app.services.geo.mapReference(), app.log);
  // The server's own traffic counters (features/traffic), written once a minute for the dashboard.
  const trafficMeter = createTrafficMeter();
  const ownHost = new URL(config.PUBLIC_URL).hostname;
  app.addHook("onResponse", async (request, reply) => {
    trafficMeter.record(reply.statusCode, reply.elapsedTime);
    // A page seen by a person: a document or a client navigation's data, answered 200, no robot.
    if (request.method !== "GET" || reply.statusCode !== 200 || request.routeOptions.url !== "/*") return;
    const path = viewedPath(request.url);
    if (path && !isbot(request.headers["user-agent"] ?? "")) {
      const referer = request.headers.referer;
      trafficMeter.pageView(path, referrerHostOf(Array.isArray(referer) ? referer[0] : referer, ownHost));
    }
  });
  app.decorate(
    "services",
    createServices(database.db, clock, {
      mail,
      publicOrigin: config.PUBLIC_URL,
      storage,
      searchResultCacheMs: cacheMs,
      secret,
      enqueue: (queue, payload, opts) => jobs.enqueue(queue, payload, opts),
      activities: config,
      posterSources: posterBasemap.sources,
      posterBasemap,
      posterOpenData: openDataSource(basemap),
      payments: stripeGateway(config),
      trafficMeter,
      dataDir: config.dataDir,
      logDir: config.logDir,
      jobStats: () => jobs.stats(),
      mailCounts: () => mail.counts(),
    }),
  );
  // Poster exports are drawn one at a time: a 50×70 PNG at 300 dpi takes a core for a few seconds.
  jobs.register<{ exportId: number }>(POSTER_EXPORT_QUEUE, (payload) =>
    app.services.posters.runExport(payload.exportId),
  );
  const schedulePeriodic = Boolean(options.runJobs) && config.NODE_ENV !== "test";
  scheduleEditionCopies(app, jobs, clock, schedulePeriodic);
  registerAlertJobs(app, jobs, clock, schedulePeriodic);
  registerActivityJobs(app, jobs, clock, schedulePeriodic);
  if (options.runJobs) jobs.start();
  // Event page views: counted in memory on the page's path, written every STATS_FLUSH_SECONDS (and at close).
  // The traffic counters too, with a CPU and memory sample.
  const viewFlush = setInterval(() => {
    app.services.engagement.flushViews().catch((error: unknown) => app.log.warn({ error }, "views not written"));
    app.services.traffic.flush().catch((error: unknown) => app.log.warn({ error }, "traffic not written"));
  }, config.STATS_FLUSH_SECONDS * 1000);
  viewFlush.unref();
  app.addHook("onClose", async () => {
    clearInterval(viewFlush);
    await app.services.engagement.flushViews().catch(() => 0);
    await app.services.traffic.flush({ sample: false }).catch(() => undefined);
    await jobs.stop();
    mail.close();
    await posterBasemap.close();
  });

  // Helmet's security headers, its middleware built once (@fastify/helmet rebuilt it, CSP parsing
  // included, on every request). Scripts from our origin only; each page adds its inline scripts'
  // hashes (shared/csp.ts).
  const securityHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    crossOriginEmbedderPolicy: false,
    // Other sites get no referrer; the site's own pages keep theirs, and above all their Origin:
    // with no-referrer, browsers send "Origin: null" on a plain form POST, which React Router
    // (rightly) refuses as a possible cross-site request, so the forms that work without
    // JavaScript could not be sent.
    referrerPolicy: { policy: "same-origin" },
  });
  app.addHook("onRequest", (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });

  // Pages and JSON go out compressed (most visitors are on phones); brotli at a low level keeps
  // the CPU cost small. Hashed assets are compressed too, then cached for a year.
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ["br", "gzip"],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });

  errorHandlers(app);
  app.addHook("onRequest", crossSiteGuard);
  app.addHook("preValidation", refuseUnstorableInput);
  await installAuth(app, {
    sessions: () => app.services.accounts.sessions,
    secret,
    publicUrl: config.PUBLIC_URL,
  });
  // From here on every route declares who may call it (config.access), checked by one hook.
  installAccessRules(app, { db: database.db, requireTargetEditor });

  await app.register(fastifySwagger, swaggerOptions({ serverUrl: config.PUBLIC_URL }));
  await app.register(withAccess(access.anyone, fastifySwaggerUi, { routePrefix: "/api/docs", staticCSP: true }));

  // The database is asked at most once a second: a load balancer polling this (or a load test)
  // costs no query per request, and a failure still shows within a second.
  let databaseCheckedAt = 0;
  app.get("/healthz", { schema: { hide: true }, config: { access: access.anyone } }, async () => {
    const now = performance.now();
    if (now - databaseCheckedAt > 1000) {
      await database.db.execute(sql`SELECT 1`);
      databaseCheckedAt = now;
    }
    return { status: "ok" };
  });

  await app.register(referenceRoutes);
  await app.register(adminRoutes);
  await app.register(logsRoutes);
  await app.register(mailLogRoutes);
  await app.register(eventGroupsRoutes);
  await app.register(searchRoutes);
  await app.register(eventDetailRoutes);
  await app.register(geoRoutes);
  await app.register(seoRoutes);
  await app.register(accountsRoutes);
  await app.register(engagementRoutes);
  await app.register(alertsRoutes);
  await app.register(ratingsRoutes);
  await app.register(resultsRoutes);
  await app.register(postersRoutes);
  await app.register(basemapRoutes);
  await app.register(commentsRoutes);
  await app.register(communityRoutes);
  await app.register(firstAdminRoutes);
  await app.register(oauthRoutes);
  await app.register(trackUploadRoutes);
  await app.register(eventImageRoutes);
  await app.register(illustrationRoutes);
  await app.register(shareImageRoutes);
  await app.register(organizerRoutes);
  await app.register(ordersRoutes);
  await app.register(editorRoutes);
  await app.register(mapsRoutes, { basemap });
  await app.register(resultsImportRoutes);
  await app.register(activitiesRoutes);

  // Uploaded files (profile photos…), under the addresses of shared/image-url.ts.
  fs.mkdirSync(path.join(config.dataDir, "uploads"), { recursive: true });
  await app.register(
    withAccess(access.anyone, fastifyStatic, {
      root: path.join(config.dataDir, "uploads"),
      prefix: "/media/",
      decorateReply: false,
      index: false,
      setHeaders(res) {
        res.header("Cache-Control", "public, max-age=86400");
      },
    }),
  );

  if (options.clientDir || options.build) {
    await app.register(staticFilesPlugin, {
      root: options.clientDir ? path.resolve(options.clientDir) : undefined,
      // The pages' catalogues, one script file per language (shared/i18n/page-bundle.server.ts).
      files: options.build ? LOCALES.map(pageBundleAsset) : [],
    });
  }

  if (options.build) {
    const build = options.build;
    if (config.PAGE_CACHE_SECONDS > 0) {
      const pageCache = createPageCache({ ttlMs: config.PAGE_CACHE_SECONDS * 1000, now: () => clock().getTime() });
      app.decorate("pageCache", pageCache);
      // A successful write may change what visitors see: the next request renders afresh.
      app.addHook("onResponse", async (request, reply) => {
        if (reply.statusCode < 400 && changesPublicPages(request)) {
          pageCache.clear();
          app.services.search.invalidate();
        }
      });
    }
    const oauthProviders = enabledProviders(config);
    const legal: LegalSettings = {
      publisher: config.LEGAL_PUBLISHER,
      address: config.LEGAL_ADDRESS,
      email: config.LEGAL_EMAIL,
      phone: config.LEGAL_PHONE,
      director: config.LEGAL_DIRECTOR,
      registration: config.LEGAL_REGISTRATION,
      host: config.LEGAL_HOST,
      hostAddress: config.LEGAL_HOST_ADDRESS,
    };
    const setup: SiteSetup = {
      demoEvents: config.DEMO_EVENTS,
      missingLegal: (Object.keys(LEGAL_SETTING_NAMES) as (keyof LegalSettings)[])
        .filter((field) => !legal[field])
        .map((field) => ({ field, setting: LEGAL_SETTING_NAMES[field] })),
      mailOutbox: !config.SMTP_URL,
    };
    await app.register(async (scope) =>
      reactRouterPlugin(scope, {
        build,
        mode: config.NODE_ENV === "development" ? "development" : "production",
        origin: config.PUBLIC_URL,
        sessionCookie: SESSION_COOKIE,
        cache: app.pageCache ? { store: app.pageCache, ttlSeconds: config.PAGE_CACHE_SECONDS } : undefined,
        onPageView: (url, userAgent) => {
          const slug = eventSlugOf(url);
          if (slug && !isbot(userAgent ?? "")) app.services.engagement.countView(slug);
        },
        context: async (request, _reply, member) => {
          // A member's copy of a shared page is rendered without them: no session lookup.
          const auth = member === "shell" ? null : await request.auth();
          return {
            services: app.services,
            config: { PUBLIC_URL: config.PUBLIC_URL, MAP_STYLE_URL: config.MAP_STYLE_URL, legal, setup },
            user: auth ? sessionUser(auth.user) : null,
            memberShell: member === "shell",
            oauthProviders,
            api: pageApi(app, request),
          };
        },
      }),
    );
  }
  return app;
}
