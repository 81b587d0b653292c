import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { announce, buildPgliteTemplate, PGLITE_TEMPLATE, statusFile } from "./templates.ts";

/**
 * The seeded PGlite database each API test file loads its own copy of (about a second, against
 * several to seed): built by `npm test`'s step of its own into DOSSARD_API_TEMPLATES (the files wait
 * for it), else here, once per run.
 */
export default async function setup(project: TestProject) {
  const shared = process.env.DOSSARD_API_TEMPLATES;
  const dir = shared ?? fs.mkdtempSync(path.join(os.tmpdir(), "dossard-test-"));
  project.provide("templateDump", path.join(dir, PGLITE_TEMPLATE));
  project.provide("templateStatus", statusFile(dir, "pglite"));
  if (shared) return;
  const started = Date.now();
  let size = 0;
  await announce(statusFile(dir, "pglite"), async () => {
    size = await buildPgliteTemplate(dir);
  });
  console.log(`[api tests] template database ready in ${Date.now() - started} ms (${Math.round(size / 1e6)} MB)`);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDump: string;
    /** "ok" once templateDump is written (tests/api/templates.ts). */
    templateStatus: string;
    /** The same for the PostgreSQL template database. */
    postgresTemplateStatus: string;
  }
}
