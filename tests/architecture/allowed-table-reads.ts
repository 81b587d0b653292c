// Imports of another feature's tables (rule 5, table-owner, of dependency-rules.test.ts; decision
// 047) that stay, each with its reason: a join that needs the other table in the same query, or a
// feature that is the write side of part of another's tables. Anything else asks the owning feature
// through a function it exports. An import not listed fails the test; an entry that no longer
// occurs fails too (delete it): the list only shrinks.
//
// Regenerate from the current tree, keeping the reasons of the entries still there:
// `npx tsx tests/architecture/report.ts --write-known`.
import type { AllowedTableRead } from "./rules.ts";

export const allowedTableReads: AllowedTableRead[] = [
  {
    from: "features/media/event-visuals.service.server.ts",
    to: "features/events/events.tables.ts",
    reason: "pending (decision 047): media writes the events' pictures",
  },
  {
    from: "features/tracks/tracks.service.server.ts",
    to: "features/events/events.tables.ts",
    reason: "pending (decision 047): tracks writes the course tracks",
  },
];
