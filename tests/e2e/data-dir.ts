import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";

/**
 * A new data folder for a journey's own server, copied from the one the global setup migrated and
 * loaded the reference data into: the server's first start then only seeds its demo catalogue.
 */
export function journeyDataDir(prefix: string): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.cpSync(inject("dataDirTemplate"), dataDir, { recursive: true });
  return dataDir;
}
