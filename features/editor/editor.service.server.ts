/**
 * Listing and correcting events, composed of three services: the four-step form
 * (editor-form.service.server.ts), moderation — statuses, queues, modification requests, history
 * (editor-moderation.service.server.ts) — and next year's editions with their nightly copy
 * (editor-editions.service.server.ts). One service object for the routes, jobs and pages.
 */
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { editorEditionsService } from "./editor-editions.service.server.ts";
import { editorFormService, type SubmissionNotice } from "./editor-form.service.server.ts";
import {
  editorModerationService,
  type ModerationNotice,
  type StatusChangeNotice,
} from "./editor-moderation.service.server.ts";

export { nextYearSameWeekday } from "./editor-editions.service.server.ts";
export type { SubmissionNotice } from "./editor-form.service.server.ts";
export { diffForms, type FieldChange } from "./editor-form-diff.ts";
export {
  historyEntryFor,
  type ModerationNotice,
  type StatusChangeNotice,
} from "./editor-moderation.service.server.ts";

export function editorService(
  db: Db,
  clock: () => Date,
  deps: {
    copyVisuals?: (fromEventId: number, toEventId: number) => Promise<void>;
    /** Mails a member the outcome of moderation, in the transaction that decided it. */
    notifyModeration?: (tx: Executor, notice: ModerationNotice) => Promise<void>;
    /** Acknowledges a new listing pending moderation, in the transaction that created it. */
    notifySubmission?: (tx: Executor, notice: SubmissionNotice) => Promise<void>;
    /**
     * An event was cancelled or postponed: called in the change's transaction, so what it queues
     * (the followers' alert mails) exists only if the change commits; it must only enqueue.
     */
    statusChanged?: (tx: Executor, change: StatusChangeNotice) => Promise<void>;
  } = {},
) {
  return {
    ...editorFormService(db, clock, deps),
    ...editorModerationService(db, clock, deps),
    ...editorEditionsService(db, clock, deps),
  };
}
export type EditorService = ReturnType<typeof editorService>;
