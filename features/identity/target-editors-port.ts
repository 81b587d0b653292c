/**
 * Who may edit the object a route names (`access.editorOf`): an event's owner, organisers and the
 * admins, known only to features/events (events, courses, tracks) and features/editor (change
 * requests). Identity names the kinds of object a rule may point at; the composition root
 * (server/app.server.ts) gives installAccessRules the events' `requireTargetEditor` through this
 * port, so identity never reads those tables.
 */
import type { Executor } from "../../platform/db/client.server.ts";
import type { EmailStatus, UserRole } from "./identity.contract.ts";

/** What a route's access rule may name as the thing the caller must edit (access.server.ts). */
export const ACCESS_TARGETS = ["event", "course", "track", "changeRequest"] as const;
export type AccessTargetKind = (typeof ACCESS_TARGETS)[number];

/** The caller, as much of them as the check needs. */
export type Actor = { id: number; role: UserRole; emailStatus: EmailStatus };

/**
 * Throws ApiError("FORBIDDEN") unless the actor edits the target; an unknown target passes (the
 * route answers its own 404).
 */
export type RequireTargetEditor = (db: Executor, actor: Actor, kind: AccessTargetKind, id: number) => Promise<void>;
