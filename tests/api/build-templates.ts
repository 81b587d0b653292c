/**
 * `npm test`'s step that builds the API tests' template databases (tests/api/templates.ts) into the
 * folder named by DOSSARD_API_TEMPLATES, beside the other lanes: the PGlite dump, then, when
 * TEST_DATABASE_URL is set, the PostgreSQL template database. The unit tests do not wait for it;
 * each API test file waits for its template's status file.
 */
import fs from "node:fs";
import { announce, buildPgliteTemplate, preparePostgresTemplate, statusFile } from "./templates.ts";

const dir = process.env.DOSSARD_API_TEMPLATES;
if (!dir) throw new Error("DOSSARD_API_TEMPLATES must name the templates' folder");
fs.mkdirSync(dir, { recursive: true });
const started = Date.now();
let size = 0;
await announce(statusFile(dir, "pglite"), async () => {
  size = await buildPgliteTemplate(dir);
});
console.log(`PGlite template ready in ${Date.now() - started} ms (${Math.round(size / 1e6)} MB)`);
const url = process.env.TEST_DATABASE_URL;
if (url) {
  const pgStarted = Date.now();
  await announce(statusFile(dir, "postgres"), () => preparePostgresTemplate(url));
  console.log(`PostgreSQL template ready in ${Date.now() - pgStarted} ms`);
}
