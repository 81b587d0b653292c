/**
 * "I am the organiser" (a code mailed to the event's contact takes over a listing), writing to an
 * organiser, and inviting friends to an event. Isomorphic: the event page's forms check with the
 * same rules. The claim's request bodies live with the editor's (editor.contract.ts).
 */
import { z } from "zod";
import type { ErrorCode } from "../../shared/api-error.ts";
import { rowId, text } from "../../shared/input.ts";

const code = (c: ErrorCode) => ({ message: c });

export const CONTACT_MESSAGE_MIN = 10;
export const CONTACT_MESSAGE_MAX = 3000;
export const SENDER_NAME_MAX = 100;
export const INVITATION_MAX_FRIENDS = 5;
export const INVITATION_MESSAGE_MAX = 1000;

export const EVENT_ACCESS_LEVELS = ["owner", "organizer", "admin", "member"] as const;

/** Line breaks and other control characters have no place in a name (it reaches mail subjects). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse them.
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

const email = text(code("EMAIL_EMPTY"))
  .trim()
  .min(1, code("EMAIL_EMPTY"))
  .max(254, code("EMAIL_INVALID"))
  .pipe(z.email(code("EMAIL_INVALID")));

/** POST /api/send-contact-organizer: anyone, signed in or not. */
export const contactOrganizerBodySchema = z.object({
  eventId: rowId,
  name: text(code("FIELD_REQUIRED")).trim().min(1, code("FIELD_REQUIRED")).max(SENDER_NAME_MAX).regex(NO_CONTROL),
  email,
  message: text(code("FIELD_REQUIRED")).trim().min(CONTACT_MESSAGE_MIN).max(CONTACT_MESSAGE_MAX),
  /** Left empty by people; robots fill every field. Not shown, not labelled for people. */
  website: text().max(500).optional(),
});
export type ContactOrganizerBody = z.input<typeof contactOrganizerBodySchema>;

/** POST /api/send-invitation: signed-in members with a verified address. */
export const invitationBodySchema = z.object({
  eventId: rowId,
  emails: z.array(email).min(1, code("EMAIL_EMPTY")).max(INVITATION_MAX_FRIENDS),
  message: text()
    .trim()
    .max(INVITATION_MESSAGE_MAX)
    .transform((v) => v || undefined)
    .optional(),
});
export type InvitationBody = z.input<typeof invitationBodySchema>;

export const checkOrganizerResponseSchema = z.object({
  /** False when the caller can already edit the event (nothing was sent). */
  sent: z.boolean(),
  /** Where the code went: the event's contact address, or the address given (its domain is the website's). */
  recipient: z.enum(["contact", "given"]).nullable(),
  /** That address, partly hidden ("c•••@t•••.fr"). */
  sentTo: z.string().nullable(),
  access: z.enum(EVENT_ACCESS_LEVELS),
});
export type CheckOrganizerResponse = z.infer<typeof checkOrganizerResponseSchema>;

export const organizerGrantedResponseSchema = z.object({
  access: z.enum(EVENT_ACCESS_LEVELS),
});

export const sentResponseSchema = z.object({ ok: z.literal(true), sent: z.number().int().min(0) });

/** What the event page knows about the organiser side, for the signed-in member (or a visitor). */
export type EventOrganizerInfo = {
  /** The caller's access; null for a visitor. */
  access: (typeof EVENT_ACCESS_LEVELS)[number] | null;
  /** Whether a message can reach the organiser (a contact address or a verified organiser). */
  canContact: boolean;
};
