import { accountsService, type MailSender } from "../features/accounts/accounts.service.server.ts";
import { type ActivitiesDeps, activitiesService } from "../features/activities/activities.service.server.ts";
import { adminService } from "../features/admin/admin.service.server.ts";
import { alertsService } from "../features/alerts/alerts.service.server.ts";
import { unsubscribeTokens } from "../features/alerts/unsubscribe-token.server.ts";
import {
  badgesService,
  memberStats,
  refreshMemberAchievements,
  removeMemberBadges,
} from "../features/badges/badges.service.server.ts";
import { commentsService, removeMemberComments } from "../features/comments/comments.service.server.ts";
import { communityService } from "../features/community/community.service.server.ts";
import { editorService } from "../features/editor/editor.service.server.ts";
import { engagementService } from "../features/engagement/engagement.service.server.ts";
import { eventDetailService } from "../features/events/event-detail.service.server.ts";
import { removeMemberFromCatalogue } from "../features/events/event-member-removal.server.ts";
import { eventShowsImage } from "../features/events/shown-images.server.ts";
import { geoService } from "../features/geo/geo.service.server.ts";
import { generatedImagesService } from "../features/illustrations/generated-images.service.server.ts";
import { logsService } from "../features/logs/logs.service.server.ts";
import { mailLogService } from "../features/mail/mail-log.server.ts";
import { removeMemberMail } from "../features/mail/mail-member-removal.server.ts";
import { eventImagesService } from "../features/media/images.service.server.ts";
import type { FileStorage } from "../features/media/storage.server.ts";
import { consumePosterCredit, creditBalance, removeMemberCredits } from "../features/orders/credits.service.server.ts";
import { ordersService } from "../features/orders/orders.service.server.ts";
import type { PaymentGateway } from "../features/orders/stripe.server.ts";
import { organizerService } from "../features/organizers/organizer.service.server.ts";
import { removeMemberOrganizerClaims } from "../features/organizers/organizer-member-removal.server.ts";
import type { BasemapSources } from "../features/posters/basemap/basemap.server.ts";
import type { OpenDataSource } from "../features/posters/basemap/opendata.server.ts";
import { type PosterSources, postersService } from "../features/posters/posters.service.server.ts";
import {
  memberContributions,
  ratingsService,
  recomputeRatingsOfMember,
  removeMemberRatings,
} from "../features/ratings/ratings.service.server.ts";
import { resultClaimsService } from "../features/results/claims.service.server.ts";
import { resultsImportService } from "../features/results/import/results-import.service.server.ts";
import { memberResults, removeMemberResults, resultsService } from "../features/results/results.service.server.ts";
import { eventGroupsService } from "../features/search/groups.service.server.ts";
import { searchTextInterpreter } from "../features/search/interpret.server.ts";
import { searchService } from "../features/search/search.service.server.ts";
import { seoService } from "../features/seo/seo.service.server.ts";
import { sportsService } from "../features/sports/sports.service.server.ts";
import { segmentedProfile } from "../features/tracks/track-stats.ts";
import { tracksService } from "../features/tracks/tracks.service.server.ts";
import { trafficService } from "../features/traffic/traffic.service.server.ts";
import { createTrafficMeter, type TrafficMeter } from "../features/traffic/traffic-meter.ts";
import type { Db, Executor } from "../platform/db/client.server.ts";
import { appVersion } from "../platform/version.server.ts";
import { pagePath } from "../shared/i18n/pages.ts";
import { publicUrl } from "../shared/public-url.ts";
import { adminPorts } from "./admin-figures.server.ts";

/** No Strava client id: the activities feature offers files only. */
const STRAVA_DISABLED = (origin: string): ActivitiesDeps["config"] => ({
  PUBLIC_URL: origin,
  STRAVA_CLIENT_ID: "",
  STRAVA_CLIENT_SECRET: "",
  STRAVA_AUTHORIZATION_URL: "https://www.strava.com/oauth/authorize",
  STRAVA_TOKEN_URL: "https://www.strava.com/oauth/token",
  STRAVA_API_URL: "https://www.strava.com/api/v3",
  STRAVA_DEAUTHORIZE_URL: "https://www.strava.com/oauth/deauthorize",
  STRAVA_WEBHOOK_VERIFY_TOKEN: "",
  STRAVA_SUBSCRIPTION_ID: "",
});

/** Every domain service, bound to one database. Loaders and API routes both call these. */
export function createServices(
  db: Db,
  clock: () => Date,
  deps: {
    mail: MailSender;
    publicOrigin: string;
    storage: FileStorage;
    /** Whole search answers reused this long (ms) until the next write; 0: never. */
    searchResultCacheMs?: number;
    /** The app secret: signs alert mails' unsubscribe links. */
    secret: string;
    /** Queues a job (alerts hand their mails to jobs). */
    enqueue?: (
      queue: string,
      payload: unknown,
      options?: { tx?: Executor; maxAttempts?: number; runAt?: Date },
    ) => Promise<number>;
    /** Strava's settings (features/activities). */
    activities?: ActivitiesDeps["config"];
    /** The posters' configured map data sources (POSTER_TILES_URL, POSTER_DEM_URL, POSTER_SATELLITE_URL: XYZ templates or PMTiles archives). */
    posterSources?: PosterSources;
    /** The posters' map data (features/posters/basemap): fetched tiles → basemap layers. */
    posterBasemap?: BasemapSources | null;
    posterOpenData?: OpenDataSource | null;
    /** Stripe, when the configuration has its keys (features/orders/stripe.server.ts). */
    payments?: PaymentGateway | null;
    /** The server's request counters (features/traffic); a fresh one when not given. */
    trafficMeter?: TrafficMeter;
    /** DATA_DIR, whose disk the dashboard shows. */
    dataDir?: string;
    /** The application log's folder (LOG_DIR; default DATA_DIR/logs), read by the admin's Logs screen. */
    logDir?: string;
    /** The job queue and the mail at a glance (the admin dashboard). */
    jobStats?: Parameters<typeof adminPorts>[2]["jobStats"];
    mailCounts?: Parameters<typeof adminPorts>[2]["mailCounts"];
  },
) {
  const results = resultsService(db, clock);
  const activities = activitiesService(db, clock, {
    config: deps.activities ?? STRAVA_DISABLED(deps.publicOrigin),
    secret: deps.secret,
    enqueue: deps.enqueue,
    recordResult: (tx, member, courseId, timeMs) =>
      results.recordManualIn(tx, member, { courseId, status: "finished", timeMs }),
  });
  const search = searchService(db, clock, { resultCacheMs: deps.searchResultCacheMs ?? 0 });
  const engagement = engagementService(db, clock, { search, publicOrigin: deps.publicOrigin });
  const geo = geoService(db);
  const alerts = alertsService(db, clock, {
    mail: deps.mail,
    search,
    tokens: unsubscribeTokens(deps.secret),
    publicOrigin: deps.publicOrigin,
    enqueue: deps.enqueue,
  });
  const accounts = accountsService(db, clock, {
    ...deps,
    memberStats: (userId) => memberStats(db, userId, clock()),
    // What other features keep of a member follows the account (features/accounts/member-data-port.ts):
    // disabling it takes its ratings out of the averages, its imported activities and its planning
    // feed's address; the GDPR export carries their data.
    memberData: {
      erase: async (userId, tx) => {
        await recomputeRatingsOfMember(tx, userId);
        await activities.eraseMember(userId, tx);
        await engagement.endCalendarFeed(userId, tx);
      },
      restore: async (userId, tx) => {
        await recomputeRatingsOfMember(tx, userId);
      },
      export: async (userId) => ({
        ...(await engagement.exportMember(userId)),
        alerts: await alerts.exportMember(userId),
        ...(await memberContributions(db, userId)),
        activities: await activities.exportMember(userId),
      }),
      // The admin's view of a member (issue 28): their events, result lines, orders and credits.
      overview: async (userId) => {
        const [events, lines, purchases] = await Promise.all([
          services.editor.listMine({ id: userId, role: "member", emailStatus: "verified" }),
          memberResults(db, userId),
          services.orders.mine(userId),
        ]);
        return {
          events: events.map((e) => ({
            id: e.id,
            slug: e.slug,
            name: e.name,
            startDate: e.startDate,
            role: e.role,
            status: e.status,
          })),
          results: lines.map((r) => ({
            id: r.id,
            event: r.event,
            course: { name: r.course.name, distance: r.course.distance },
            source: r.source,
            status: r.status,
            timeMs: r.timeMs,
            rank: r.rank,
          })),
          orders: purchases.orders.map((o) => ({
            uid: o.uid,
            createdAt: o.createdAt,
            productId: o.productId,
            amountCents: o.amountCents,
            status: o.status,
            receiptNumber: o.receiptNumber,
          })),
          credits: purchases.credits,
        };
      },
      // GDPR deletion (decision 048), after `erase`, in the deletion's transaction: each owner
      // removes or unlinks what it keeps of the member.
      remove: async (userId, email, tx) => {
        await removeMemberRatings(tx, userId);
        await engagement.removeMember(userId, tx);
        await alerts.removeMember(userId, tx);
        await removeMemberComments(tx, userId);
        const keptResults = await removeMemberResults(tx, userId);
        await removeMemberBadges(tx, userId);
        const files = await services.posters.removeMember(userId, tx);
        const keptOrders = await removeMemberCredits(tx, userId);
        await removeMemberOrganizerClaims(tx, userId);
        await removeMemberFromCatalogue(tx, userId);
        await removeMemberMail(tx, userId, email);
        return { files, keptResults, keptOrders };
      },
    },
  });
  const images = eventImagesService({
    db,
    clock,
    storage: deps.storage,
    userPhoto: async (userId) => {
      const user = await accounts.byId(userId);
      return user && !user.disabledAt ? { file: user.photo, isPublic: user.publicProfile } : null;
    },
  });
  const traffic = trafficService(db, clock, { meter: deps.trafficMeter ?? createTrafficMeter() });
  const services = {
    accounts,
    activities,
    alerts,
    traffic,
    editor: editorService(db, clock, {
      statusChanged: alerts.statusChanged,
      copyVisuals: images.copyVisuals,
      notifyModeration: async (tx, notice) => {
        const user = await accounts.byId(notice.userId, tx);
        if (!user || user.disabledAt) return;
        const locale = user.locale === "en" ? "en" : "fr";
        await deps.mail.send({
          to: user.email,
          userId: user.id,
          template: "eventModerated",
          locale,
          params: {
            firstName: user.firstName,
            eventName: notice.eventName,
            decision: notice.decision,
            eventUrl: publicUrl(pagePath("event", locale, { slug: notice.slug }), deps.publicOrigin),
            ...(notice.message ? { message: notice.message } : {}),
          },
          tx,
        });
      },
      notifySubmission: async (tx, notice) => {
        const user = await accounts.byId(notice.userId, tx);
        if (!user || user.disabledAt) return;
        const locale = user.locale === "en" ? "en" : "fr";
        await deps.mail.send({
          to: user.email,
          userId: user.id,
          template: "eventSubmitted",
          locale,
          params: {
            firstName: user.firstName,
            eventName: notice.eventName,
            eventUrl: publicUrl(pagePath("event", locale, { slug: notice.slug }), deps.publicOrigin),
          },
          tx,
        });
      },
    }),
    images,
    engagement,
    ratings: ratingsService(db, clock),
    results,
    resultClaims: resultClaimsService(db, clock, {
      // The member hears of the organiser's decision on their claim.
      notify: async (tx, notice) => {
        const user = await accounts.byId(notice.userId, tx);
        if (!user || user.disabledAt) return;
        const locale = user.locale === "en" ? "en" : "fr";
        await deps.mail.send({
          to: user.email,
          userId: user.id,
          template: "resultClaimDecided",
          locale,
          params: {
            firstName: user.firstName,
            eventName: notice.eventName,
            courseName: notice.courseName,
            decision: notice.decision,
            resultsUrl: publicUrl(pagePath("results", locale), deps.publicOrigin),
          },
          tx,
        });
      },
    }),
    badges: badgesService(db, clock),
    posters: postersService(db, clock, {
      storage: deps.storage,
      sources: deps.posterSources ?? { tiles: false, dem: false },
      basemap: deps.posterBasemap ?? null,
      openData: deps.posterOpenData ?? null,
      enqueue: deps.enqueue,
      credits: {
        consume: async (tx, userId, posterId) => {
          await consumePosterCredit(db, tx, userId, posterId);
        },
        remaining: creditBalance,
      },
    }),
    comments: commentsService(db, clock),
    community: communityService(db, clock),
    generatedImages: generatedImagesService({
      storage: deps.storage,
      isShown: (path) => eventShowsImage(db, path),
    }),
    tracks: tracksService(db, clock),
    groups: eventGroupsService(db, clock, search),
    eventDetails: eventDetailService(db, clock, { trackProfile: segmentedProfile }),
    organizers: organizerService(db, clock, deps),
    orders: ordersService(db, clock, { payments: deps.payments ?? null, publicOrigin: deps.publicOrigin }),
    search,
    geo,
    searchText: searchTextInterpreter(db, geo, clock),
    sports: sportsService(db),
    seo: seoService(db, clock),
    resultsImport: resultsImportService(db, clock, {
      enqueue: deps.enqueue,
      refreshAchievements: refreshMemberAchievements,
    }),
  };
  const admin = adminService(db, clock, {
    traffic,
    dataDir: deps.dataDir ?? "./data",
    version: appVersion(),
    ...adminPorts(db, clock, {
      waitingEvents: () => services.editor.waitingCount(),
      reportedComments: () => services.comments.reportedCount(),
      pendingClaims: () => services.resultClaims.pendingCount(),
      jobStats: deps.jobStats ?? (async () => ({ pending: 0, running: 0, failed: 0, byQueue: [] })),
      mailCounts: deps.mailCounts ?? (async () => ({ queued: 0, sent24h: 0, failed24h: 0 })),
    }),
  });
  // The admin's logs: the application log on disk, the events' history, the e-mail log (issue 28).
  const logs = logsService(db, { logDir: deps.logDir ?? `${deps.dataDir ?? "./data"}/logs` });
  const mailLog = mailLogService(db, { send: (message) => deps.mail.send(message), publicUrl: deps.publicOrigin });
  return { ...services, admin, logs, mailLog };
}
export type Services = ReturnType<typeof createServices>;
