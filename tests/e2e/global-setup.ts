import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout } from "node:timers/promises";
import type { TestProject } from "vitest/node";
import { accountsService } from "../../features/accounts/accounts.service.server.ts";
import { createJobQueue } from "../../features/jobs/jobs.service.server.ts";
import { createMailService } from "../../features/mail/mail.service.server.ts";
import { loadConfig } from "../../platform/config.server.ts";
import { openDatabase } from "../../platform/db/client.server.ts";
import { ensureSeeded } from "../../seed/index.server.ts";
import { startFakeStripe } from "../support/fake-stripe.ts";
import { E2E_ADMINS } from "./accounts.ts";
import { startMailbox } from "./mailbox.ts";
import { startServer } from "./server-process.ts";

/**
 * Starts the built server the way `npm start` does (embedded PGlite, first-start seeding) in a
 * throw-away data folder, and hands its URL to the journeys.
 *
 * A first start spends most of its time migrating and loading the reference data (communes…), the
 * same for every server. That part is done once here, in a data folder each server of the
 * journeys starts from a copy of (`journeyDataDir`): their first start then only seeds the demo
 * catalogue they ask for. The server process journeys (process.e2e.test.ts) start from an empty
 * folder, as a real first start does.
 */
export default async function setup(project: TestProject) {
  const started = Date.now();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-e2e-"));
  const template = path.join(root, "template");
  const database = await openDatabase({ dataDir: path.join(template, "pgdata") });
  await database.migrate();
  await ensureSeeded(database.db, { demoEvents: 0 });
  await database.close();
  project.provide("dataDirTemplate", template);

  const dataDir = path.join(root, "shared");
  fs.cpSync(template, dataDir, { recursive: true });
  await seedSharedServer(dataDir);
  const seeded = Date.now();
  const mail = await startMailbox();
  project.provide("mailboxUrl", mail.mailboxUrl);

  // Stripe's fake (tests/support/fake-stripe.ts), for the journeys that pay (orders, posters).
  const stripe = await startFakeStripe();
  project.provide("stripeUrl", stripe.base);

  await built();
  const build = Date.now();
  // Behind a "proxy" on loopback: each journey file says its own client address (client-address.ts).
  const server = await startServer({
    DATA_DIR: dataDir,
    DEMO_EVENTS: String(SHARED_DEMO_EVENTS),
    SMTP_URL: mail.smtpUrl,
    TRUSTED_PROXIES: "loopback",
    // The admin dashboard's journey reads the page views it made a moment ago.
    STATS_FLUSH_SECONDS: "1",
    ...stripe.env,
    // The seller printed on receipts (the orders journey downloads one).
    LEGAL_PUBLISHER: "Dossard SAS",
    LEGAL_ADDRESS: "12 rue des Coureurs, 74000 Annecy",
  });
  console.log(
    `[journeys] data seeded in ${seeded - started} ms, build ready ${Math.max(0, build - seeded)} ms later, ` +
      `server up in ${Date.now() - build} ms`,
  );
  stripe.setWebhookUrl(`${server.baseURL}/ext/payment/webhook`);
  project.provide("baseURL", server.baseURL);
  project.provide("dataDir", dataDir);
  return async () => {
    await server.stop();
    await stripe.close();
    await mail.close();
    fs.rmSync(root, { recursive: true, force: true });
  };
}

/** The shared server's demo catalogue: 600 races, enough for every search the journeys make. */
const SHARED_DEMO_EVENTS = 600;

/**
 * The shared server's data, made while the site is being built: its demo catalogue, seeded as the
 * server's first start would seed it (same count, seed and "today"; the start then finds it there
 * and goes straight to listening), and its administrators, made as `npm run user:create-admin`
 * makes them. A real first start, seeding included, is process.e2e.test.ts's journey.
 */
async function seedSharedServer(dataDir: string): Promise<void> {
  const database = await openDatabase({ dataDir: path.join(dataDir, "pgdata") });
  try {
    const config = loadConfig({
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      DEMO_EVENTS: String(SHARED_DEMO_EVENTS),
    });
    await ensureSeeded(database.db, { demoEvents: config.DEMO_EVENTS, seed: config.DEMO_SEED });
    const clock = () => new Date();
    const jobs = createJobQueue(database.db, { clock });
    const mail = createMailService({ db: database.db, jobs, config, clock });
    const accounts = accountsService(database.db, clock, { mail, publicOrigin: config.PUBLIC_URL });
    for (const admin of Object.values(E2E_ADMINS)) await accounts.createAdmin(admin);
  } finally {
    await database.close();
  }
}

/**
 * Resolves once build/ holds the site. `npm test` builds it beside the tests and writes the build
 * step's verdict to the file named by DOSSARD_BUILD_STATUS (scripts/test.mjs); run alone, the
 * journeys build it when it is missing.
 */
async function built(): Promise<void> {
  const status = process.env.DOSSARD_BUILD_STATUS;
  if (status) {
    const deadline = Date.now() + 10 * 60_000;
    while (!fs.existsSync(status)) {
      if (Date.now() > deadline) throw new Error(`no build verdict in ${status} after 10 minutes`);
      await setTimeout(200);
    }
    if (fs.readFileSync(status, "utf8") !== "ok") throw new Error("the build step failed: no journeys without a build");
    return;
  }
  if (!fs.existsSync("build/server/index.js")) {
    const build = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
    if (build.status !== 0) throw new Error("build failed");
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    /** The shared server's data folder. */
    dataDir: string;
    /** The fake Stripe the shared server pays through (its hosted checkout pages live here). */
    stripeUrl: string;
    /** The HTTP window on the shared server's SMTP server (mailbox.ts). */
    mailboxUrl: string;
    /** A data folder migrated and with the reference data loaded, to copy (see journeyDataDir). */
    dataDirTemplate: string;
  }
}
