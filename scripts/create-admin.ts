/**
 * Creates the first admin, or promotes an existing account to admin.
 *
 *   npm run user:create-admin -- --email ana@example.fr [--password "…"] [--first-name Ana]
 *
 * Without --password a random one is generated and printed once. Uses DATABASE_URL when set,
 * else the embedded database in ${DATA_DIR:-./data}/pgdata; when a server is running on that
 * folder (PGlite allows one process per folder), the command asks that server to do it.
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import type { z } from "zod";
import { emailSchema, newPasswordSchema } from "../features/accounts/accounts.contract.ts";
import { accountsService } from "../features/accounts/accounts.service.server.ts";
import { CONTROL_HEADER, controlToken, runningServer } from "../features/accounts/first-admin.routes.server.ts";
import { cookieSecret } from "../features/identity/auth.server.ts";
import { createJobQueue } from "../features/jobs/jobs.service.server.ts";
import { createMailService } from "../features/mail/mail.service.server.ts";
import { loadConfig } from "../platform/config.server.ts";
import { openDatabase } from "../platform/db/client.server.ts";
import { apiErrorMessage, isErrorCode } from "../shared/api-error.ts";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../shared/constants.ts";

const USAGE = `Usage: npm run user:create-admin -- --email EMAIL [--password PASSWORD] [--first-name NAME]`;

function fail(message: string): never {
  console.error(`create-admin: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function check<T>(schema: z.ZodType<T>, value: unknown, name: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const code = parsed.error.issues[0]?.message;
  fail(`--${name}: ${isErrorCode(code) ? apiErrorMessage(code, "en") : "invalid"}`);
}

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    password: { type: "string" },
    "first-name": { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!values.email) fail("--email is required");
const email = check(emailSchema, values.email, "email");
const generated = values.password ? null : randomBytes(12).toString("base64url");
const password = check(newPasswordSchema, values.password ?? generated, "password");

const config = loadConfig();

/** Prints what was done, in the same words whichever way it was done. */
function report(result: { id: number; created: boolean }) {
  console.log(`${result.created ? "Created" : "Promoted"} admin #${result.id} <${email}>`);
  if (generated) console.log(`Password: ${generated}\n(shown once: sign in and change it in your settings)`);
}

// The embedded database belongs to the running server, if there is one: ask it.
const server = config.DATABASE_URL ? null : runningServer(config.dataDir);
if (server) {
  const secret = cookieSecret(config.SESSION_SECRET, config.dataDir);
  let response: Response;
  try {
    response = await fetch(`http://127.0.0.1:${server.port}/api/internal/create-admin`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        [ACCESS_HEADER]: ACCESS_HEADER_VALUE,
        [CONTROL_HEADER]: controlToken(secret),
      },
      body: JSON.stringify({ email, password, firstName: values["first-name"] }),
    });
  } catch (error) {
    fail(`the server of ${config.dataDir} (pid ${server.pid}) did not answer on port ${server.port}: ${error}`);
  }
  if (!response.ok) fail(`the running server refused (${response.status}): ${await response.text()}`);
  report((await response.json()) as { id: number; created: boolean });
  process.exit(0);
}

const database = await openDatabase(
  config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: `${config.dataDir}/pgdata` },
);
try {
  await database.migrate();
  const clock = () => new Date();
  // Mail is queued for the server to send; this command sends none itself.
  const jobs = createJobQueue(database.db, { clock });
  const mail = createMailService({ db: database.db, jobs, config, clock });
  const accounts = accountsService(database.db, clock, { mail, publicOrigin: config.PUBLIC_URL });
  report(await accounts.createAdmin({ email, password, firstName: values["first-name"] }));
} finally {
  await database.close();
}
