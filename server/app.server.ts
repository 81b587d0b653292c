import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import fastifyCompress from "@fastify/compress";
import fastifyHelmet from "@fastify/helmet";
import fastifyStatic from "@fastify/static";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import { sql } from "drizzle-orm";
import Fastify, { type FastifyInstance } from "fastify";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import type { ServerBuild } from "react-router";
import type { Database } from "../db/client.server.ts";
import { accountsRoutes } from "../features/accounts/accounts.routes.server.ts";
import { sessionUser } from "../features/accounts/accounts.service.server.ts";
import { cookieSecret, installAuth } from "../features/accounts/auth.server.ts";
import { oauthRoutes } from "../features/accounts/oauth/oauth.routes.server.ts";
import { enabledProviders } from "../features/accounts/oauth/providers.server.ts";
import { editorRoutes } from "../features/editor/editor.routes.server.ts";
import { eventDetailRoutes } from "../features/events/event-detail.routes.server.ts";
import { geoRoutes } from "../features/geo/geo.routes.server.ts";
import { createJobQueue, type JobQueue } from "../features/jobs/jobs.service.server.ts";
import { createMailService } from "../features/mail/mail.service.server.ts";
import { eventImageRoutes } from "../features/media/images.routes.server.ts";
import { type FileStorage, localStorage } from "../features/media/storage.server.ts";
import { organizerRoutes } from "../features/organizers/organizer.routes.server.ts";
import { eventGroupsRoutes } from "../features/search/groups.routes.server.ts";
import { searchRoutes } from "../features/search/search.routes.server.ts";
import { seoRoutes } from "../features/seo/seo.routes.server.ts";
import { referenceRoutes } from "../features/sports/reference.routes.server.ts";
import { trackUploadRoutes } from "../features/tracks/tracks.routes.server.ts";
import { configurePublicOrigin } from "../shared/public-url.ts";
import type { Config } from "./config.server.ts";
import { accessHeaderGuard, errorHandlers } from "./errors.server.ts";
import { pageApi } from "./page-api.server.ts";
import { reactRouterPlugin } from "./react-router.server.ts";
import { createServices, type Services } from "./services.server.ts";

declare module "node:http" {
  interface ServerResponse {
    /** CSP nonce of this response's inline scripts. */
    scriptNonce?: string;
  }
}

declare module "fastify" {
  interface FastifyInstance {
    services: Services;
    config: Config;
    jobs: JobQueue;
    storage: FileStorage;
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
};

const EDITION_COPY_QUEUE = "events.copy-editions";

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
    logger: options.logger ?? false,
    trustProxy: true,
    routerOptions: { ignoreTrailingSlash: true },
  });
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
  app.decorate("services", createServices(database.db, clock, { mail, publicOrigin: config.PUBLIC_URL, storage }));
  scheduleEditionCopies(app, jobs, clock, Boolean(options.runJobs) && config.NODE_ENV !== "test");
  if (options.runJobs) {
    jobs.start();
    app.addHook("onClose", async () => jobs.stop());
  }

  // A fresh nonce per response for the inline scripts React Router emits. Only script-src gets it:
  // a nonce in style-src would make browsers ignore 'unsafe-inline' and drop every style="…".
  app.addHook("onRequest", async (_request, reply) => {
    reply.raw.scriptNonce = randomBytes(16).toString("base64");
  });
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as { scriptNonce?: string }).scriptNonce}'`],
        // Map tiles and styles come from a configurable host; images may be remote (event photos).
        imgSrc: ["'self'", "data:", "blob:", "https:"],
        connectSrc: ["'self'", "https:"],
        workerSrc: ["'self'", "blob:"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        fontSrc: ["'self'", "data:"],
        frameSrc: ["'self'", "https://www.youtube-nocookie.com", "https://player.vimeo.com"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // Other sites get no referrer; the site's own pages keep theirs, and above all their Origin:
    // with no-referrer, browsers send "Origin: null" on a plain form POST, which React Router
    // (rightly) refuses as a possible cross-site request, so the forms that work without
    // JavaScript could not be sent.
    referrerPolicy: { policy: "same-origin" },
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
  await installAuth(app, {
    accounts: () => app.services.accounts,
    secret: cookieSecret(config.SESSION_SECRET, config.dataDir),
    publicUrl: config.PUBLIC_URL,
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: "Dossard API", version: "1.0.0", description: "The race calendar's JSON API." },
      components: {
        securitySchemes: { access: { type: "apiKey", in: "header", name: "x-dossard-access" } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: "/api/docs", staticCSP: true });

  app.get("/healthz", { schema: { hide: true } }, async () => {
    await database.db.execute(sql`SELECT 1`);
    return { status: "ok" };
  });

  await app.register(referenceRoutes);
  await app.register(eventGroupsRoutes);
  await app.register(searchRoutes);
  await app.register(eventDetailRoutes);
  await app.register(geoRoutes);
  await app.register(seoRoutes);
  await app.register(accountsRoutes);
  await app.register(oauthRoutes);
  await app.register(trackUploadRoutes);
  await app.register(eventImageRoutes);
  await app.register(organizerRoutes);
  await app.register(editorRoutes);

  // Uploaded files (profile photos…), under the addresses of shared/image-url.ts.
  fs.mkdirSync(path.join(config.dataDir, "uploads"), { recursive: true });
  await app.register(fastifyStatic, {
    root: path.join(config.dataDir, "uploads"),
    prefix: "/media/",
    decorateReply: false,
    index: false,
    setHeaders(res) {
      res.header("Cache-Control", "public, max-age=86400");
    },
  });

  if (options.clientDir) {
    await app.register(fastifyStatic, {
      root: path.resolve(options.clientDir),
      prefix: "/",
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        // Hashed build assets never change; the rest (favicon, images) may.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header("Cache-Control", "public, max-age=31536000, immutable");
        } else {
          res.header("Cache-Control", "public, max-age=3600");
        }
      },
    });
  }

  if (options.build) {
    const build = options.build;
    const oauthProviders = enabledProviders(config);
    await app.register(async (scope) =>
      reactRouterPlugin(scope, {
        build,
        mode: config.NODE_ENV === "development" ? "development" : "production",
        context: async (request, reply) => {
          const auth = await request.auth();
          return {
            services: app.services,
            config: { PUBLIC_URL: config.PUBLIC_URL, MAP_STYLE_URL: config.MAP_STYLE_URL },
            nonce: reply.raw.scriptNonce ?? "",
            user: auth ? sessionUser(auth.user) : null,
            oauthProviders,
            api: pageApi(app, request),
          };
        },
      }),
    );
  }
  return app;
}
