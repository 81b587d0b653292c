/**
 * Creates the first admin, or promotes an existing account to admin.
 *
 *   npm run user:create-admin -- --email ana@example.fr [--password "…"] [--first-name Ana]
 *
 * Without --password a random one is generated and printed once. Uses DATABASE_URL when set,
 * else the embedded database in ${DATA_DIR:-./data}/pgdata (stop the server first: PGlite allows
 * one process per data folder).
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import type { z } from "zod";
import { openDatabase } from "../db/client.server.ts";
import { emailSchema, newPasswordSchema } from "../features/accounts/accounts.contract.ts";
import { accountsService } from "../features/accounts/accounts.service.server.ts";
import { createJobQueue } from "../features/jobs/jobs.service.server.ts";
import { createMailService } from "../features/mail/mail.service.server.ts";
import { loadConfig } from "../server/config.server.ts";
import { apiErrorMessage, isErrorCode } from "../shared/api-error.ts";

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
  const result = await accounts.createAdmin({ email, password, firstName: values["first-name"] });
  console.log(`${result.created ? "Created" : "Promoted"} admin #${result.id} <${email}>`);
  if (generated) console.log(`Password: ${generated}\n(shown once: sign in and change it in your settings)`);
} finally {
  await database.close();
}
