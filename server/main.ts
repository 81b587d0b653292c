import "./node-env.ts";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { ConfigError, checkDataDir, checkListen, loadConfig } from "../platform/config.server.ts";

async function main() {
  // Every setting is checked before anything slow starts (loading the server's modules, the
  // database, the catalogue): a bad one stops the server at once, named.
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
    checkDataDir(config);
    await checkListen(config);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // `--check`: the settings only (npm start asks before a build, which takes a while).
  if (process.argv.includes("--check")) process.exit(0);
  const log = (message: string) => console.log(`[dossard] ${message}`);

  const buildFile = path.resolve("build/server/index.js");
  if (!fs.existsSync(buildFile)) {
    console.error("The site is not built: run `npm run build` (npm start does it for you).");
    process.exit(1);
  }

  const [
    { openDatabase },
    { ensureSeeded },
    { cookieSecret },
    { removeServerFile, setupPath, writeServerFile },
    { buildApp },
    { loggerOptions },
    demo,
    demoCommunity,
  ] = await Promise.all([
    import("../platform/db/client.server.ts"),
    import("../seed/index.server.ts"),
    import("../features/identity/auth.server.ts"),
    import("../features/accounts/first-admin.routes.server.ts"),
    import("./app.server.ts"),
    import("./logging.server.ts"),
    import("../seed/demo-accounts.server.ts"),
    import("../seed/demo-community.server.ts"),
  ]);

  // The database starts while booting, never on the first request.
  const started = Date.now();
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: path.join(config.dataDir, "pgdata"),
  });
  await database.migrate();
  log(`database ready (${database.kind}) in ${Date.now() - started} ms`);
  await ensureSeeded(database.db, {
    demoEvents: config.DEMO_EVENTS,
    seed: config.DEMO_SEED,
    csvPath: config.COMMUNES_CSV,
    log,
  });

  // The demo catalogue's community: runners with results, badges and plans (made once).
  if (config.DEMO_EVENTS > 0 && config.DEMO_MEMBERS > 0) {
    const community = await demoCommunity.ensureDemoCommunity(database.db, {
      members: config.DEMO_MEMBERS,
      seed: config.DEMO_SEED,
      now: new Date(),
    });
    if (community) {
      log(
        `demo community: ${community.members} members, ${community.results} results (${community.claimed} claimed), ` +
          `${community.planned} planned races, in ${community.ms} ms`,
      );
    }
  }

  // Demo accounts in development (or when DEMO_ACCOUNTS=1): printed once the server listens.
  const demoAccounts = demo.demoAccountsWanted(config)
    ? await demo.ensureDemoAccounts(database.db, { now: new Date() })
    : null;

  const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;
  const app = await buildApp({
    runJobs: true,
    config,
    database,
    build,
    clientDir: path.resolve("build/client"),
    // Paths only, secrets redacted, failed statements without their values (logging.server.ts).
    logger: loggerOptions(config.LOG_LEVEL),
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log(`${signal} received, closing`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      removeServerFile(config.dataDir);
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      console.error(error);
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  writeServerFile(config.dataDir, typeof address === "object" && address ? address.port : config.PORT);
  log(`Dossard is running on ${config.PUBLIC_URL} (listening on ${config.HOST}:${config.PORT})`);
  if (demoAccounts) log(demo.demoAccountsBanner(demoAccounts, config.PUBLIC_URL));
  if (!(await app.services.accounts.hasAdmin())) {
    const secret = cookieSecret(config.SESSION_SECRET, config.dataDir);
    log(
      `No administrator yet. Create the first one at ${config.PUBLIC_URL}${setupPath(secret)} ` +
        "(this link works until an administrator exists; keep it private).",
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
