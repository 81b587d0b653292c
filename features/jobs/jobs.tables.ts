import { bigserial, index, jsonb, pgEnum, pgTable, smallint, text, timestamp, varchar } from "drizzle-orm/pg-core";

export const jobStatus = pgEnum("job_status", ["pending", "running", "done", "failed"]);

/** The PostgreSQL-backed job queue (decision 009): claimed with FOR UPDATE SKIP LOCKED. */
export const jobs = pgTable(
  "jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    queue: varchar("queue", { length: 48 }).notNull(),
    payload: jsonb("payload").notNull(),
    status: jobStatus("status").notNull().default("pending"),
    attempts: smallint("attempts").notNull().default(0),
    maxAttempts: smallint("max_attempts").notNull().default(5),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    lockedAt: timestamp("locked_at", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("jobs_pending_idx").on(t.status, t.runAt)],
);
