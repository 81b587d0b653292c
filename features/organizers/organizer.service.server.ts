/**
 * The real organiser takes over a listing: a 5-digit code mailed to the event's contact address
 * (or to the address given, when its domain is the event website's) grants organiser rights on
 * that event. Also: visitors writing to an organiser (whose address is never shown) and members
 * inviting friends to an event.
 */
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { DEFAULT_LOCALE, type Locale } from "../../shared/constants.ts";
import { formatLongDate } from "../../shared/dates.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import {
  type Actor,
  type EventAccess,
  eventAccess,
  grantOrganizer,
  organizerAddresses,
} from "../events/event-access.server.ts";
import { recordEventHistory } from "../events/event-history.server.ts";
import { eventContact } from "../events/event-reads.server.ts";
import { requireVerifiedEmail } from "../identity/auth.server.ts";
import { LIMITS, rateLimiter } from "../identity/rate-limit.server.ts";
import {
  CODE_MAX_ATTEMPTS,
  CODE_TTL_MS,
  RESEND_AFTER_MS,
  randomCode,
  sameDigest,
  sha256,
} from "../identity/secrets.server.ts";
import { displayName, promoteToOrganiser } from "../identity/users.server.ts";
import type {
  CheckOrganizerResponse,
  ContactOrganizerBody,
  EventOrganizerInfo,
  InvitationBody,
} from "./organizer.contract.ts";
import { organizerClaims } from "./organizers.tables.ts";

/** The signed-in member as this domain needs them (accounts' user row fits). */
export type Member = Actor & {
  firstName: string;
  lastName: string;
  pseudo: string;
  locale: string;
};

export type CallerMeta = { ip: string; locale: Locale };

/** What this domain needs from the mail system. */
export interface OrganizerMail {
  send(message: {
    to: string;
    userId?: number;
    template: string;
    locale: Locale;
    params: Record<string, unknown>;
    secrets?: Record<string, string>;
    tx?: Executor;
  }): Promise<number>;
}

/**
 * Addresses anyone can get, and hosts shared by many sites: a website there proves nothing about
 * who owns an address at the same domain.
 */
const SHARED_DOMAINS = new Set([
  "gmail.com",
  "googlemail.com",
  "google.com",
  "yahoo.com",
  "yahoo.fr",
  "hotmail.com",
  "hotmail.fr",
  "outlook.com",
  "outlook.fr",
  "live.com",
  "live.fr",
  "msn.com",
  "icloud.com",
  "me.com",
  "orange.fr",
  "wanadoo.fr",
  "free.fr",
  "sfr.fr",
  "neuf.fr",
  "laposte.net",
  "bbox.fr",
  "aol.com",
  "gmx.fr",
  "gmx.com",
  "protonmail.com",
  "proton.me",
  "facebook.com",
  "wordpress.com",
  "wixsite.com",
  "wix.com",
  "blogspot.com",
  "jimdo.com",
  "webnode.fr",
  "e-monsite.com",
  "over-blog.com",
  "sportsregions.fr",
  "github.io",
]);

/** True when the address's domain is the website's host (or a parent of it), on a domain of its own. */
export function emailMatchesWebsite(email: string, website: string | null): boolean {
  if (!website) return false;
  const domain = email.split("@").pop()?.trim().toLowerCase() ?? "";
  if (!domain.includes(".") || SHARED_DOMAINS.has(domain)) return false;
  let host: string;
  try {
    host = new URL(website).hostname.toLowerCase().replace(/^www\./, "");
  } catch {
    return false;
  }
  return host === domain || host.endsWith(`.${domain}`);
}

/** "contact@trail-x.example.org" → "c•••@t•••.org": enough to know which mailbox to open. */
export function maskEmail(email: string): string {
  const [local = "", domain = ""] = email.split("@");
  const dot = domain.lastIndexOf(".");
  const name = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : "";
  return `${local.slice(0, 1)}•••@${name.slice(0, 1)}•••${tld}`;
}

/** Organisers' language is unknown: French for events where French is spoken, else English. */
const FRENCH_SPEAKING = new Set(["FR", "BE", "CH", "LU", "MC", "RE", "GP", "MQ", "GF", "YT", "NC", "PF"]);
const organizerLocale = (countryCode: string): Locale => (FRENCH_SPEAKING.has(countryCode) ? "fr" : "en");

const claimHash = (userId: number, eventId: number, code: string) => sha256(`${userId}:${eventId}:${code}`);

export function organizerService(db: Db, clock: () => Date, deps: { mail: OrganizerMail; publicOrigin: string }) {
  const limiter = rateLimiter(db, clock);
  const origin = deps.publicOrigin.replace(/\/+$/, "");
  const eventUrl = (slug: string, locale: Locale) => `${origin}${pagePath("event", locale, { slug })}`;

  async function findEvent(eventId: number, options: { activeOnly?: boolean } = {}) {
    const event = await eventContact(db, eventId);
    if (!event || (options.activeOnly && event.status !== "active")) throw new ApiError("ITEM_NOT_FOUND");
    return event;
  }

  return {
    /** The event page's organiser side: the caller's access and whether the organiser can be written to. */
    async pageInfo(eventId: number, actor: Actor | null): Promise<EventOrganizerInfo> {
      const event = await eventContact(db, eventId);
      const access = actor ? await eventAccess(db, actor, eventId) : null;
      const canContact = Boolean(event?.contactEmail) || (await organizerAddresses(db, eventId)).length > 0;
      return { access, canContact };
    },

    /**
     * POST /api/event/check-organizer: mails a code to the event's contact address, or to the
     * address given when its domain is the website's. One code a minute per member and event.
     */
    async checkOrganizer(member: Member, body: { eventId: number; email: string }, meta: CallerMeta) {
      requireVerifiedEmail(member);
      const known = await findEvent(body.eventId);
      const access = (await eventAccess(db, member, known.id)) as EventAccess;
      // Pending or inactive listings are their editors' business: others cannot claim them.
      const event = access === "member" ? await findEvent(body.eventId, { activeOnly: true }) : known;
      if (access !== "member") {
        return { sent: false, recipient: null, sentTo: null, access } satisfies CheckOrganizerResponse;
      }
      const given = body.email.trim().toLowerCase();
      const recipient: "given" | "contact" | null = emailMatchesWebsite(given, event.website)
        ? "given"
        : event.contactEmail
          ? "contact"
          : null;
      if (!recipient) throw new ApiError("NO_ORGANIZER_CONTACT");
      const to = recipient === "given" ? given : (event.contactEmail as string);

      const [latest] = await db
        .select({ createdAt: organizerClaims.createdAt })
        .from(organizerClaims)
        .where(and(eq(organizerClaims.eventId, event.id), eq(organizerClaims.userId, member.id)))
        .orderBy(desc(organizerClaims.id))
        .limit(1);
      if (latest && clock().getTime() - latest.createdAt.getTime() < RESEND_AFTER_MS) {
        throw new ApiError("EMAIL_ALREADY_SENT");
      }
      await limiter.hit(`organizer-claim:account:${member.id}`, LIMITS.organizerClaimAccount);
      await limiter.hit(`organizer-claim:event:${event.id}`, LIMITS.organizerClaimEvent);

      const code = randomCode();
      const now = clock();
      await db.transaction(async (tx) => {
        // Only the newest code works.
        await tx
          .update(organizerClaims)
          .set({ usedAt: now })
          .where(
            and(
              eq(organizerClaims.eventId, event.id),
              eq(organizerClaims.userId, member.id),
              isNull(organizerClaims.usedAt),
            ),
          );
        await tx.insert(organizerClaims).values({
          eventId: event.id,
          userId: member.id,
          email: to,
          secretHash: claimHash(member.id, event.id, code),
          expiresAt: new Date(now.getTime() + CODE_TTL_MS),
          createdAt: now,
        });
        // The event's editors read its history: which kind of address the code went to, never the
        // address itself (the one typed is the member's own business; organizer_claims keeps it).
        await recordEventHistory(tx, {
          eventId: event.id,
          type: "organizer_validation_sent",
          userId: member.id,
          data: { recipient },
          createdAt: now,
        });
        await deps.mail.send({
          to,
          userId: member.id,
          template: "organizerCode",
          locale: meta.locale,
          params: { eventName: event.name, memberName: displayName(member) },
          secrets: { code },
          tx,
        });
      });
      return { sent: true, recipient, sentTo: maskEmail(to), access } satisfies CheckOrganizerResponse;
    },

    /** POST /api/event/organizer/{id}: the right code makes the member an organiser of the event. */
    async confirmOrganizer(member: Member, eventId: number, code: string, meta: CallerMeta): Promise<EventAccess> {
      requireVerifiedEmail(member);
      await limiter.hit(`organizer-verify:ip:${meta.ip}`, LIMITS.verifyIp);
      await limiter.hit(`organizer-verify:account:${member.id}`, LIMITS.organizerVerifyAccount);
      const event = await findEvent(eventId, { activeOnly: true });
      const [claim] = await db
        .select()
        .from(organizerClaims)
        .where(
          and(
            eq(organizerClaims.eventId, event.id),
            eq(organizerClaims.userId, member.id),
            isNull(organizerClaims.usedAt),
          ),
        )
        .orderBy(desc(organizerClaims.id))
        .limit(1);
      const now = clock();
      if (!claim || claim.expiresAt <= now || claim.attempts >= CODE_MAX_ATTEMPTS) throw new ApiError("CODE_EXPIRED");
      if (!sameDigest(claim.secretHash, claimHash(member.id, event.id, code))) {
        const [counted] = await db
          .update(organizerClaims)
          .set({ attempts: sql`${organizerClaims.attempts} + 1` })
          .where(eq(organizerClaims.id, claim.id))
          .returning({ attempts: organizerClaims.attempts });
        throw new ApiError(
          (counted?.attempts ?? CODE_MAX_ATTEMPTS) >= CODE_MAX_ATTEMPTS ? "CODE_EXPIRED" : "INVALID_CODE",
        );
      }
      await db.transaction(async (tx) => {
        // Two tabs sending the same code: only one uses it.
        const [used] = await tx
          .update(organizerClaims)
          .set({ usedAt: now })
          .where(and(eq(organizerClaims.id, claim.id), isNull(organizerClaims.usedAt)))
          .returning({ id: organizerClaims.id });
        if (!used) throw new ApiError("CODE_EXPIRED");
        await grantOrganizer(tx, { eventId: event.id, userId: member.id, email: claim.email, grantedAt: now });
        const viaContact = claim.email.toLowerCase() === event.contactEmail?.trim().toLowerCase();
        await recordEventHistory(tx, {
          eventId: event.id,
          type: "organizer_validation",
          userId: member.id,
          data: { recipient: viaContact ? "contact" : "given" },
          createdAt: now,
        });
        await promoteToOrganiser(tx, member.id);
      });
      return (await eventAccess(db, member, event.id)) as EventAccess;
    },

    /**
     * POST /api/send-contact-organizer: a visitor's message, relayed to the event's contact address
     * (or its verified organisers) with replies going to the visitor. The address is never returned.
     */
    async contactOrganizer(body: ContactOrganizerBody, meta: CallerMeta): Promise<void> {
      await limiter.hit(`contact-organizer:ip:${meta.ip}`, LIMITS.contactOrganizerIp);
      // A robot filled the hidden field: it is told all went well, and nothing leaves.
      if (body.website) return;
      const event = await findEvent(body.eventId, { activeOnly: true });
      const recipients = event.contactEmail ? [event.contactEmail] : await organizerAddresses(db, event.id);
      if (recipients.length === 0) throw new ApiError("NO_ORGANIZER_CONTACT");
      await limiter.hit(`contact-organizer:event:${event.id}`, LIMITS.contactOrganizerEvent);
      const locale = organizerLocale(event.countryCode);
      await db.transaction(async (tx) => {
        for (const to of recipients) {
          await deps.mail.send({
            to,
            template: "contactOrganizer",
            locale,
            params: {
              eventName: event.name,
              senderName: body.name.trim(),
              senderEmail: body.email.trim(),
              message: body.message.trim(),
              eventUrl: eventUrl(event.slug, locale),
            },
            tx,
          });
        }
      });
    },

    /** POST /api/send-invitation: a verified member invites up to five friends; returns how many were mailed. */
    async invite(member: Member, body: InvitationBody, meta: CallerMeta): Promise<number> {
      requireVerifiedEmail(member);
      await limiter.hit(`invitation:account:${member.id}`, LIMITS.invitationAccount);
      const event = await findEvent(body.eventId, { activeOnly: true });
      const recipients = [...new Set(body.emails.map((e) => e.trim().toLowerCase()))];
      for (const to of recipients) {
        await limiter.hit(`invitation:to:${to}`, LIMITS.invitationRecipient);
      }
      const params = {
        senderName: displayName(member) || member.firstName,
        eventName: event.name,
        eventDate: formatLongDate(event.startDate, meta.locale),
        eventUrl: eventUrl(event.slug, meta.locale),
        ...(body.message?.trim() ? { message: body.message.trim() } : {}),
      };
      await db.transaction(async (tx) => {
        for (const to of recipients) {
          await deps.mail.send({ to, template: "invitation", locale: meta.locale ?? DEFAULT_LOCALE, params, tx });
        }
      });
      return recipients.length;
    },
  };
}

export type OrganizerService = ReturnType<typeof organizerService>;
