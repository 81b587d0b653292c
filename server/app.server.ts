import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import fastifyCompress from "@fastify/compress";
import fastifyStatic from "@fastify/static";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import { sql } from "drizzle-orm";
import Fastify, { type FastifyInstance, type FastifyRequest, type RouteOptions } from "fastify";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import helmet from "helmet";
import type { ServerBuild } from "react-router";
import type { Database } from "../db/client.server.ts";
import { access, installAccessRules, withAccess } from "../features/accounts/access.server.ts";
import { accountsRoutes } from "../features/accounts/accounts.routes.server.ts";
import { sessionUser } from "../features/accounts/accounts.service.server.ts";
import { cookieSecret, installAuth } from "../features/accounts/auth.server.ts";
import { firstAdminRoutes } from "../features/accounts/first-admin.routes.server.ts";
import { oauthRoutes } from "../features/accounts/oauth/oauth.routes.server.ts";
import { enabledProviders } from "../features/accounts/oauth/providers.server.ts";
import { SESSION_COOKIE } from "../features/accounts/sessions.server.ts";
import { commentsRoutes } from "../features/comments/comments.routes.server.ts";
import { editorRoutes } from "../features/editor/editor.routes.server.ts";
import { engagementRoutes } from "../features/engagement/engagement.routes.server.ts";
import { eventDetailRoutes } from "../features/events/event-detail.routes.server.ts";
import { geoRoutes } from "../features/geo/geo.routes.server.ts";
import { illustrationRoutes } from "../features/illustrations/illustrations.routes.server.ts";
import { createJobQueue, type JobQueue } from "../features/jobs/jobs.service.server.ts";
import { createMailService } from "../features/mail/mail.service.server.ts";
import { mapsRoutes } from "../features/maps/maps.routes.server.ts";
import { eventImageRoutes } from "../features/media/images.routes.server.ts";
import { type FileStorage, localStorage } from "../features/media/storage.server.ts";
import { organizerRoutes } from "../features/organizers/organizer.routes.server.ts";
import { ratingsRoutes } from "../features/ratings/ratings.routes.server.ts";
import { eventGroupsRoutes } from "../features/search/groups.routes.server.ts";
import { searchRoutes } from "../features/search/search.routes.server.ts";
import { seoRoutes } from "../features/seo/seo.routes.server.ts";
import { referenceRoutes } from "../features/sports/reference.routes.server.ts";
import { trackUploadRoutes } from "../features/tracks/tracks.routes.server.ts";
import { LOCALES } from "../shared/constants.ts";
import { CSP_DIRECTIVES } from "../shared/csp.ts";
import { pageBundleAsset } from "../shared/i18n/page-bundle.server.ts";
import { configurePublicOrigin } from "../shared/public-url.ts";
import type { LegalSettings } from "../shared/static-pages.ts";
import type { Config } from "./config.server.ts";
import { accessHeaderGuard, errorHandlers, frameworkErrors } from "./errors.server.ts";
import { refuseUnstorableInput } from "./input-guard.server.ts";
import { loggerOptions } from "./logging.server.ts";
import { pageApi } from "./page-api.server.ts";
import { createPageCache, type PageCache } from "./page-cache.server.ts";
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

const EDITION_COPY_QUEUE = "events.copy-editions";

/** Writes that never change a public page: signing in or up, codes, password recovery. */
const PAGE_NEUTRAL_WRITES = new Set([
  "/api/register",
  "/api/login",
  "/api/logout",
  "/api/user/send-verify",
  "/api/user/verify-account",
  "/api/recover-password",
  "/api/reset-password",
]);

function changesPublicPages(request: FastifyRequest): boolean {
  const method = request.method;
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return false;
  return !PAGE_NEUTRAL_WRITES.has(request.routeOptions.url ?? "");
}

/** The next 03:00 UTC (4 or 5 a.m. in France), when the site is quiet. */
export function nextNightlyRun(now: Date): Date {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 3));
  if (next <= now) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

/**
 * Next year's editions are created by a nightly job (which also purges orphan track uploads).
 * Only servers that run jobs schedule it; the job schedules its next night itself.
 */
function scheduleEditionCopies(app: FastifyInstance, jobs: JobQueue, clock: () => Date, schedule: boolean) {
  jobs.register(EDITION_COPY_QUEUE, async () => {
    // The next night is booked first (once: this run counts as active), so a failing run never
    // stops the schedule.
    if ((await jobs.active(EDITION_COPY_QUEUE)) <= 1) {
      await jobs.enqueue(EDITION_COPY_QUEUE, {}, { runAt: nextNightlyRun(new Date(clock().getTime() + 60_000)) });
    }
    const created = await app.services.editor.copyDueEditions();
    await app.services.editor.purgeOrphanTracks();
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
  const app = Fastify({
    // Whoever turns logging on gets the redaction and scrubbing of server/logging.server.ts.
    logger: options.logger ? { ...loggerOptions(), ...(options.logger === true ? {} : options.logger) } : false,
    // X-Forwarded-* only from the proxies named in TRUSTED_PROXIES: request.ip is then the
    // right-most address that is not one of them (per-address limits, sessions, logs).
    trustProxy: config.TRUSTED_PROXIES.length ? config.TRUSTED_PROXIES : false,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors,
  });
  if (options.onRoute) app.addHook("onRoute", options.onRoute);
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
  app.decorate(
    "services",
    createServices(database.db, clock, {
      mail,
      publicOrigin: config.PUBLIC_URL,
      storage,
      searchResultCacheMs: cacheMs,
    }),
  );
  scheduleEditionCopies(app, jobs, clock, Boolean(options.runJobs) && config.NODE_ENV !== "test");
  if (options.runJobs) jobs.start();
  app.addHook("onClose", async () => {
    await jobs.stop();
    mail.close();
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
  app.addHook("onRequest", accessHeaderGuard);
  app.addHook("preValidation", refuseUnstorableInput);
  await installAuth(app, {
    accounts: () => app.services.accounts,
    secret: cookieSecret(config.SESSION_SECRET, config.dataDir),
    publicUrl: config.PUBLIC_URL,
  });
  // From here on every route declares who may call it (config.access), checked by one hook.
  installAccessRules(app, { db: database.db });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: "Dossard API", version: "1.0.0", description: "The race calendar's JSON API." },
      components: {
        securitySchemes: { access: { type: "apiKey", in: "header", name: "x-dossard-access" } },
      },
    },
    transform: jsonSchemaTransform,
  });
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
  await app.register(eventGroupsRoutes);
  await app.register(searchRoutes);
  await app.register(eventDetailRoutes);
  await app.register(geoRoutes);
  await app.register(seoRoutes);
  await app.register(accountsRoutes);
  await app.register(engagementRoutes);
  await app.register(ratingsRoutes);
  await app.register(commentsRoutes);
  await app.register(firstAdminRoutes);
  await app.register(oauthRoutes);
  await app.register(trackUploadRoutes);
  await app.register(eventImageRoutes);
  await app.register(illustrationRoutes);
  await app.register(organizerRoutes);
  await app.register(editorRoutes);
  await app.register(mapsRoutes);

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
    await app.register(async (scope) =>
      reactRouterPlugin(scope, {
        build,
        mode: config.NODE_ENV === "development" ? "development" : "production",
        origin: config.PUBLIC_URL,
        sessionCookie: SESSION_COOKIE,
        cache: app.pageCache ? { store: app.pageCache, ttlSeconds: config.PAGE_CACHE_SECONDS } : undefined,
        context: async (request, _reply, member) => {
          // A member's copy of a shared page is rendered without them: no session lookup.
          const auth = member === "shell" ? null : await request.auth();
          return {
            services: app.services,
            config: { PUBLIC_URL: config.PUBLIC_URL, MAP_STYLE_URL: config.MAP_STYLE_URL, legal },
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
