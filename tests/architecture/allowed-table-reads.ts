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
    reason:
      "media is the write side of the events' pictures: each change locks the event row and, in its transaction, sets events.cover_image/header_image, keeps event_images (add, order, replace, delete) and writes the history line (after checking the courses are saved complete); the events feature knows no uploads or storage",
  },
  {
    from: "features/tracks/tracks.service.server.ts",
    to: "features/events/events.tables.ts",
    reason:
      "tracks is the write side of the course tracks: `tracks` is declared with the events' tables because the event pages read it with the courses (declared in features/tracks, events -> tracks would close a cycle with tracks -> events); upload, attach, reverse, rename and delete lock the course and write the track, its history line and the event's updated_at in one transaction",
  },
];
