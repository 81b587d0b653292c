import { z } from "zod";
import { ADMIN_COUNTERS } from "./admin-sections.ts";

/** What waits for an admin, by menu counter (pending events, reports, claims, failed jobs). */
export const adminCountsSchema = z.object(
  Object.fromEntries(ADMIN_COUNTERS.map((counter) => [counter, z.number().int().min(0)])) as Record<
    (typeof ADMIN_COUNTERS)[number],
    z.ZodNumber
  >,
);

const trafficPointSchema = z.object({
  at: z.string().describe("Start of the hour or the day (UTC, ISO 8601)"),
  requests: z.number().int(),
  serverErrors: z.number().int(),
  clientErrors: z.number().int(),
  p95Ms: z.number().nullable().describe("95th percentile latency (a histogram bound, ms); null without requests"),
  cpuPercent: z.number().nullable(),
  memoryPercent: z.number().nullable(),
});

const diskSchema = z.object({
  path: z.string(),
  totalBytes: z.number(),
  freeBytes: z.number(),
  usedPercent: z.number(),
});

/** GET /api/admin/dashboard. */
export const dashboardSchema = z.object({
  generatedAt: z.string(),
  version: z.object({ app: z.string(), commit: z.string().nullable(), node: z.string() }),
  cpu: z.object({
    percent: z.number().describe("Share of the machine's cores busy since the previous reading (0–100)"),
    cores: z.number().int(),
    loadAverage: z.array(z.number()),
    model: z.string(),
  }),
  memory: z.object({
    totalBytes: z.number(),
    availableBytes: z.number(),
    usedPercent: z.number(),
    processBytes: z.number(),
  }),
  disk: z.object({
    data: diskSchema.nullable().describe("The file system that holds DATA_DIR"),
    databaseBytes: z.number().nullable(),
  }),
  traffic: z.object({
    requestsPerMinute: z.number().describe("This server's requests in the last five minutes, per minute"),
    errorRate: z.number().describe("Share of those answered with a 5xx (0–1)"),
    p95Ms: z.number().nullable(),
    hours: z.array(trafficPointSchema).describe("The last 24 hours, all server instances"),
    days: z.array(trafficPointSchema).describe("The last 30 days"),
    audience: z.object({
      days: z.number().int(),
      viewsToday: z.number().int(),
      views: z.number().int(),
      topPages: z.array(z.object({ path: z.string(), views: z.number().int() })),
      topReferrers: z.array(z.object({ host: z.string(), views: z.number().int() })),
    }),
  }),
  uptime: z.object({ processSeconds: z.number(), systemSeconds: z.number(), startedAt: z.string() }),
  business: z.object({
    members: z.object({
      total: z.number().int(),
      new7d: z.number().int(),
      new30d: z.number().int(),
      active30d: z.number().int(),
      disabled: z.number().int(),
    }),
    events: z.object({
      listed: z.number().int(),
      upcoming: z.number().int(),
      pending: z.number().int(),
      added30d: z.number().int(),
    }),
    results: z.object({ lines: z.number().int(), imported30d: z.number().int(), owned: z.number().int() }),
    sales: z.object({ paidOrders: z.number().int(), amountCents: z.number().int(), creditsSold: z.number().int() }),
    posters: z.object({ created30d: z.number().int(), exported30d: z.number().int() }),
    mail: z.object({ queued: z.number().int(), sent24h: z.number().int(), failed24h: z.number().int() }),
    jobs: z.object({
      pending: z.number().int(),
      running: z.number().int(),
      failed: z.number().int(),
      byQueue: z.array(
        z.object({ queue: z.string(), pending: z.number().int(), running: z.number().int(), failed: z.number().int() }),
      ),
    }),
  }),
  counts: adminCountsSchema,
});
export type Dashboard = z.infer<typeof dashboardSchema>;
export type BusinessFigures = Dashboard["business"];
