import { preparePostgresTemplate } from "./harness.ts";

/** The real-PostgreSQL run: one seeded template database that each test file clones. */
export default async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DATABASE_URL is required for the api-pg project");
  const started = Date.now();
  await preparePostgresTemplate(url);
  console.log(`[api-pg tests] template database ready in ${Date.now() - started} ms`);
}
