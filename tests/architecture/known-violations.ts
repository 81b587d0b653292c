// Today's violations of the dependency rules (dependency-rules.test.ts), accepted while issue 27
// (moving db/client and the server helpers into platform/, the seeds into seed/, untangling the
// features) is under way. This list must only shrink: a new violation fails the test, and so does an
// entry that no longer occurs (delete it). The file goes away when issue 27 is done.
//
// Each entry is an import "importing file -> imported file" (paths from the repository root).
// Regenerate from the current tree: `npx tsx tests/architecture/report.ts --write-known`.
import type { KnownViolations } from "./rules.ts";

export const knownViolations: KnownViolations = {
  layer: [],
  featureOutward: [],
  fileCycle: [],
};
