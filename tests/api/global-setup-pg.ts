import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { announce, preparePostgresTemplate, statusFile } from "./templates.ts";

/**
 * The real-PostgreSQL run: one seeded template database that each test file clones, prepared by
 * `npm test`'s step of its own (DOSSARD_API_TEMPLATES; the files wait for it), else here.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DATABASE_URL is required for the api-pg project");
  const shared = process.env.DOSSARD_API_TEMPLATES;
  const dir = shared ?? fs.mkdtempSync(path.join(os.tmpdir(), "dossard-test-pg-"));
  project.provide("postgresTemplateStatus", statusFile(dir, "postgres"));
  if (shared) return;
  const started = Date.now();
  await announce(statusFile(dir, "postgres"), () => preparePostgresTemplate(url));
  console.log(`[api-pg tests] template database ready in ${Date.now() - started} ms`);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
