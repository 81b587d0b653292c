import fs from "node:fs";
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { elideFrench } from "../../shared/i18n/french-elision.ts";
import { TEST_REFERENCE_DATE } from "../../tests/api/fixtures.ts";
import { accessHeaders, createTestApp, type TestApp } from "../../tests/api/harness.ts";
import { startTestSmtpServer, type TestSmtpServer } from "../../tests/support/smtp-server.ts";
import { eventOrganizers } from "../editor/editor.tables.ts";
import { eventAccess } from "../events/event-access.server.ts";
import { eventHistory, events } from "../events/events.tables.ts";
import { users } from "../identity/identity.tables.ts";
import { mailMessages } from "../mail/mail.tables.ts";
import { emailMatchesWebsite, maskEmail } from "./organizer.service.server.ts";
import { organizerClaims } from "./organizers.tables.ts";

let t: TestApp;
let smtp: TestSmtpServer;
let now = new Date(TEST_REFERENCE_DATE);
let ipCounter = 0;
const minutes = (n: number) => {
  now = new Date(now.getTime() + n * 60_000);
};

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await createTestApp({ clock: () => now, env: { SMTP_URL: smtp.url }, runJobs: true });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

type Client = { ip: string; cookie: string; locale: "fr" | "en" };
const newClient = (locale: "fr" | "en" = "fr"): Client => ({
  ip: `10.9.${++ipCounter >> 8}.${ipCounter & 255}`,
  cookie: "",
  locale,
});

async function call(client: Client, url: string, payload: unknown) {
  const response = await t.app.inject({
    method: "POST",
    url,
    remoteAddress: client.ip,
    headers: {
      ...accessHeaders,
      "x-locale": client.locale,
      "content-type": "application/json",
      ...(client.cookie ? { cookie: client.cookie } : {}),
    },
    payload: JSON.stringify(payload),
  });
  const set = response.cookies.find((c) => c.name === "dossard_session");
  if (set) client.cookie = set.value ? `dossard_session=${set.value}` : "";
  return response;
}

let emailCounter = 0;
const uniqueEmail = (name = "orga") => `${name}.${++emailCounter}.${Date.now().toString(36)}@example.fr`;

/** The first message to `to` received since `after` whose text holds a 5-digit code. */
async function codeMailedTo(to: string, after: number): Promise<string> {
  const mail = await smtp.waitFor(
    (m) => m.to.includes(to) && /\b\d{5}\b/.test(m.text) && smtp.messages.indexOf(m) >= after,
  );
  const code = mail.text.match(/\b(\d{5})\b/)?.[1];
  if (!code) throw new Error(`no code in ${mail.text}`);
  return code;
}

type Member = { client: Client; email: string; id: number };

async function registered(locale: "fr" | "en" = "fr"): Promise<Member> {
  const client = newClient(locale);
  const email = uniqueEmail();
  const response = await call(client, "/api/register", {
    email,
    password: "correct horse 42",
    passwordConfirmation: "correct horse 42",
    firstName: "Camille",
    lastName: "Organisatrice",
    pseudo: "",
    terms: true,
    locale,
  });
  expect(response.statusCode, response.body).toBe(201);
  return { client, email, id: response.json().user.id };
}

async function verified(locale: "fr" | "en" = "fr"): Promise<Member> {
  const member = await registered(locale);
  const code = await codeMailedTo(member.email, 0);
  const response = await call(member.client, "/api/user/verify-account", { code });
  expect(response.statusCode, response.body).toBe(200);
  return member;
}

type EventRow = { id: number; slug: string; name: string; contactEmail: string | null };
const usedEvents = new Set<number>();

/** A fresh active event of the seeded catalogue (ownerless, imported), shaped for the test. */
async function anEvent(set: { contactEmail?: string | null; website?: string | null } = {}): Promise<EventRow> {
  const rows = await t.database.db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.status, "active"), isNull(events.ownerId), isNotNull(events.contactEmail)))
    .orderBy(events.id);
  const free = rows.find((r) => !usedEvents.has(r.id));
  if (!free) throw new Error("no event left");
  usedEvents.add(free.id);
  const values = {
    // Each event gets its own mailbox, so messages are told apart.
    contactEmail: `contact.${free.id}@club-${free.id}.example.net`,
    website: null as string | null,
    ...set,
  };
  const [event] = await t.database.db
    .update(events)
    .set(values)
    .where(eq(events.id, free.id))
    .returning({ id: events.id, slug: events.slug, name: events.name, contactEmail: events.contactEmail });
  return event;
}

const claim = (member: Member, eventId: number, email = "moi@mon-club-perso.fr") =>
  call(member.client, "/api/event/check-organizer", { eventId, email, belongs: true });
const confirm = (member: Member, eventId: number, code: string) =>
  call(member.client, `/api/event/organizer/${eventId}`, { code });
const wrongCode = (code: string) => String((Number(code) + 1) % 100_000).padStart(5, "0");

/** The organiser entries of an event's history (the seeded catalogue has its own). */
async function historyTypes(eventId: number): Promise<string[]> {
  const rows = await t.database.db
    .select({ type: eventHistory.type })
    .from(eventHistory)
    .where(eq(eventHistory.eventId, eventId))
    .orderBy(eventHistory.id);
  return rows.map((r) => r.type).filter((type) => type.startsWith("organizer_"));
}

describe("helpers", () => {
  it("matches an address to the website's domain, not to shared hosts", () => {
    expect(emailMatchesWebsite("a@trail-x.fr", "https://www.trail-x.fr/inscriptions")).toBe(true);
    expect(emailMatchesWebsite("a@trail-x.fr", "https://inscriptions.trail-x.fr")).toBe(true);
    expect(emailMatchesWebsite("a@TRAIL-X.fr", "https://trail-x.fr")).toBe(true);
    expect(emailMatchesWebsite("a@x.fr", "https://trail-x.fr")).toBe(false);
    expect(emailMatchesWebsite("a@trail-x.fr.evil.com", "https://trail-x.fr")).toBe(false);
    expect(emailMatchesWebsite("a@gmail.com", "https://sites.gmail.com/trail")).toBe(false);
    expect(emailMatchesWebsite("a@wixsite.com", "https://club.wixsite.com/trail")).toBe(false);
    expect(emailMatchesWebsite("a@trail-x.fr", null)).toBe(false);
    expect(emailMatchesWebsite("a@trail-x.fr", "not a url")).toBe(false);
  });

  it("hides most of an address", () => {
    expect(maskEmail("contact@trail-x.example.org")).toBe("c•••@t•••.org");
  });
});

describe("I am the organiser", () => {
  it("refuses visitors (401) and members whose address is not verified (409)", async () => {
    const event = await anEvent();
    const anonymous = newClient();
    for (const [url, body] of [
      ["/api/event/check-organizer", { eventId: event.id, email: "a@b.fr", belongs: true }],
      [`/api/event/organizer/${event.id}`, { code: "12345" }],
    ] as const) {
      const response = await call(anonymous, url, body);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe("LOGIN_REQUIRED");
    }
    const member = await registered();
    const response = await claim(member, event.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({
      code: "EMAIL_VERIFICATION_REQUIRED",
      message: "Vérification de l'adresse e-mail requise.",
    });
    expect((await confirm(member, event.id, "12345")).json().error.code).toBe("EMAIL_VERIFICATION_REQUIRED");
  });

  it("needs the box ticked and a valid address", async () => {
    const member = await verified();
    const event = await anEvent();
    const unticked = await call(member.client, "/api/event/check-organizer", {
      eventId: event.id,
      email: "a@b.fr",
      belongs: false,
    });
    expect(unticked.statusCode).toBe(400);
    expect(unticked.json().error).toMatchObject({ code: "FIELD_REQUIRED", field: "belongs" });
    const badEmail = await call(member.client, "/api/event/check-organizer", {
      eventId: event.id,
      email: "nope",
      belongs: true,
    });
    expect(badEmail.json().error).toMatchObject({ code: "EMAIL_INVALID", field: "email" });
    const missing = await claim(member, 99_999_999);
    expect(missing.statusCode).toBe(404);
  });

  it("mails a code to the event's contact address, keeps only its hash and writes the history", async () => {
    const member = await verified();
    const event = await anEvent();
    const after = smtp.messages.length;
    const response = await claim(member, event.id);
    expect(response.statusCode, response.body).toBe(200);
    const c = event.id;
    expect(response.json()).toEqual({ sent: true, recipient: "contact", sentTo: "c•••@c•••.net", access: "member" });
    expect(response.body).not.toContain(`contact.${c}`);
    const code = await codeMailedTo(event.contactEmail!, after);
    const mail = smtp.messages.find((m) => m.to.includes(event.contactEmail!) && m.text.includes(code))!;
    expect(mail.subject).toBe(`Votre code organisateur pour ${event.name}`);
    expect(mail.text).toContain("Camille Organisatrice");
    expect(mail.subject).not.toContain(code);

    const [stored] = await t.database.db.select().from(organizerClaims).where(eq(organizerClaims.eventId, event.id));
    expect(stored).toMatchObject({ userId: member.id, email: event.contactEmail, attempts: 0, usedAt: null });
    expect(stored.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.secretHash).not.toContain(code);
    expect(stored.expiresAt.getTime() - now.getTime()).toBe(15 * 60_000);
    const [message] = await t.database.db
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.recipient, event.contactEmail!));
    expect(JSON.stringify(message.params)).not.toContain(code);
    expect(await historyTypes(event.id)).toEqual(["organizer_validation_sent"]);
  });

  it("mails the address given when its domain is the event website's", async () => {
    const member = await verified("en");
    const event = await anEvent({ website: "https://www.trail-des-tests.fr/edition-2026" });
    const given = `presidente.${event.id}@trail-des-tests.fr`;
    const after = smtp.messages.length;
    const response = await claim(member, event.id, given);
    expect(response.json()).toMatchObject({ sent: true, recipient: "given", sentTo: "p•••@t•••.fr" });
    const code = await codeMailedTo(given, after);
    const mail = smtp.messages.find((m) => m.to.includes(given) && m.text.includes(code))!;
    expect(mail.subject).toBe(`Your organiser code for ${event.name}`);
    expect(smtp.messages.slice(after).some((m) => m.to.includes(event.contactEmail!))).toBe(false);
    const granted = await confirm(member, event.id, code);
    expect(granted.json()).toEqual({ access: "organizer" });
    const [row] = await t.database.db.select().from(eventOrganizers).where(eq(eventOrganizers.eventId, event.id));
    expect(row).toMatchObject({ userId: member.id, email: given });
  });

  it("says so when the event has no contact address and the domain does not match", async () => {
    const member = await verified();
    const event = await anEvent({ contactEmail: null, website: "https://www.autre-club.fr" });
    const response = await claim(member, event.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({
      code: "NO_ORGANIZER_CONTACT",
      message: "Nous n'avons pas d'adresse de contact pour cet événement : écrivez-nous depuis la page contact.",
    });
    expect(await historyTypes(event.id)).toEqual([]);
  });

  it("sends at most one code a minute per member and event; only the newest code works", async () => {
    const member = await verified();
    const event = await anEvent();
    let after = smtp.messages.length;
    expect((await claim(member, event.id)).statusCode).toBe(200);
    const first = await codeMailedTo(event.contactEmail!, after);
    const again = await claim(member, event.id);
    expect(again.statusCode).toBe(429);
    expect(again.json().error).toMatchObject({
      code: "EMAIL_ALREADY_SENT",
      message: "Un e-mail vous a déjà été envoyé.",
    });
    // Another event is another claim.
    const other = await anEvent();
    expect((await claim(member, other.id)).statusCode).toBe(200);

    minutes(1.1);
    after = smtp.messages.length;
    expect((await claim(member, event.id)).statusCode).toBe(200);
    const second = await codeMailedTo(event.contactEmail!, after);
    if (first !== second) {
      const old = await confirm(member, event.id, first);
      expect(old.json().error.code).toBe("INVALID_CODE");
    }
    expect((await confirm(member, event.id, second)).json()).toEqual({ access: "organizer" });
  });

  it("refuses a wrong code beside the field, then an expired one", async () => {
    const member = await verified("en");
    const event = await anEvent();
    const after = smtp.messages.length;
    await claim(member, event.id);
    const code = await codeMailedTo(event.contactEmail!, after);
    const wrong = await confirm(member, event.id, wrongCode(code));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toEqual({ code: "INVALID_CODE", field: "code", message: "Incorrect code." });
    const malformed = await confirm(member, event.id, "12a45");
    expect(malformed.json().error).toMatchObject({ code: "INVALID_CODE", field: "code" });

    minutes(16);
    const expired = await confirm(member, event.id, code);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error).toEqual({
      code: "CODE_EXPIRED",
      field: "code",
      message: "This code has expired: ask for a new one.",
    });
    expect(await eventAccess(t.database.db, { id: member.id, role: "member", emailStatus: "verified" }, event.id)).toBe(
      "member",
    );
  });

  it("allows five tries per code, and limits tries per member", async () => {
    const member = await verified();
    const event = await anEvent();
    const after = smtp.messages.length;
    await claim(member, event.id);
    const code = await codeMailedTo(event.contactEmail!, after);
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) codes.push((await confirm(member, event.id, wrongCode(code))).json().error.code);
    expect(codes).toEqual(["INVALID_CODE", "INVALID_CODE", "INVALID_CODE", "INVALID_CODE", "CODE_EXPIRED"]);
    // Burnt: even the right code no longer works.
    expect((await confirm(member, event.id, code)).json().error.code).toBe("CODE_EXPIRED");
    // Ten tries a quarter of an hour, whatever the codes.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await confirm(member, event.id, code)).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    expect((await confirm(member, event.id, code)).json().error.code).toBe("TOO_MANY_ATTEMPTS");
  });

  it("grants organiser rights: access, role, history, and the code cannot be used again", async () => {
    const member = await verified();
    const event = await anEvent();
    const after = smtp.messages.length;
    await claim(member, event.id);
    const code = await codeMailedTo(event.contactEmail!, after);
    const granted = await confirm(member, event.id, code);
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json()).toEqual({ access: "organizer" });

    const [user] = await t.database.db.select().from(users).where(eq(users.id, member.id));
    expect(user.role).toBe("organiser");
    expect(await eventAccess(t.database.db, user, event.id)).toBe("organizer");
    expect(await historyTypes(event.id)).toEqual(["organizer_validation_sent", "organizer_validation"]);
    const [row] = await t.database.db.select().from(eventOrganizers).where(eq(eventOrganizers.eventId, event.id));
    expect(row).toMatchObject({ userId: member.id, email: event.contactEmail });

    const reused = await confirm(member, event.id, code);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.code).toBe("CODE_EXPIRED");
    // Nothing more to send: they already edit it.
    expect((await claim(member, event.id)).json()).toEqual({
      sent: false,
      recipient: null,
      sentTo: null,
      access: "organizer",
    });
    // And the editor's status route now lets them work on it.
    const checked = await call(member.client, `/api/event/${event.id}/status/check`, {});
    expect(checked.statusCode, checked.body).toBe(200);
    // Another member's code is theirs alone.
    const other = await verified();
    expect((await confirm(other, event.id, code)).json().error.code).toBe("CODE_EXPIRED");
  });
});

describe("the event history of claims", () => {
  async function history(client: Client, eventId: number) {
    return t.app.inject({
      method: "GET",
      url: `/api/event/${eventId}/history`,
      remoteAddress: client.ip,
      headers: { ...accessHeaders, cookie: client.cookie },
    });
  }

  it("tells the organiser a member tried to claim the event, never the addresses typed, nor who", async () => {
    const website = "https://www.club-historique.fr";
    const organiser = await verified();
    const event = await anEvent({ website });
    let after = smtp.messages.length;
    await claim(organiser, event.id);
    const code = await codeMailedTo(event.contactEmail!, after);
    expect((await confirm(organiser, event.id, code)).json()).toEqual({ access: "organizer" });

    // Two other members try: one types a private address (the code goes to the contact address),
    // the other one at the website's domain (the code goes there).
    const intruder = await verified();
    const typedPrivate = `intruder.private.${event.id}@gmail.com`;
    expect((await claim(intruder, event.id, typedPrivate)).json()).toMatchObject({ recipient: "contact" });
    const colleague = await verified();
    const typedAtDomain = `benevole.${event.id}@club-historique.fr`;
    after = smtp.messages.length;
    expect((await claim(colleague, event.id, typedAtDomain)).json()).toMatchObject({ recipient: "given" });
    await codeMailedTo(typedAtDomain, after);
    const secrets = [typedPrivate, typedAtDomain, intruder.email, colleague.email, organiser.email];

    const seen = await history(organiser.client, event.id);
    expect(seen.statusCode, seen.body).toBe(200);
    for (const address of secrets) expect(seen.body).not.toContain(address);
    expect(seen.body).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/);
    const claims = (seen.json().history as { type: string; userId: number | null; data: object }[]).filter((h) =>
      h.type.startsWith("organizer_"),
    );
    // Newest first: the two attempts are anonymous; the organiser's own entries are theirs.
    expect(claims).toEqual([
      expect.objectContaining({ type: "organizer_validation_sent", userId: null, data: { recipient: "given" } }),
      expect.objectContaining({ type: "organizer_validation_sent", userId: null, data: { recipient: "contact" } }),
      expect.objectContaining({ type: "organizer_validation", userId: organiser.id, data: { recipient: "contact" } }),
      expect.objectContaining({
        type: "organizer_validation_sent",
        userId: organiser.id,
        data: { recipient: "contact" },
      }),
    ]);

    // Members who are not editors of the event read nothing.
    expect((await history(intruder.client, event.id)).statusCode).toBe(403);
    // Admins see who asked, still without the addresses.
    const admin = await verified();
    await t.database.db.update(users).set({ role: "admin" }).where(eq(users.id, admin.id));
    const adminView = await history(admin.client, event.id);
    expect(adminView.statusCode, adminView.body).toBe(200);
    for (const address of secrets) expect(adminView.body).not.toContain(address);
    const askers = (adminView.json().history as { type: string; userId: number }[])
      .filter((h) => h.type === "organizer_validation_sent")
      .map((h) => h.userId);
    expect(askers).toEqual([colleague.id, intruder.id, organiser.id]);

    // Nor are the addresses stored in the history.
    const stored = await t.database.db.select().from(eventHistory).where(eq(eventHistory.eventId, event.id));
    expect(JSON.stringify(stored.map((h) => h.data))).not.toContain("@");
  });

  it("cleans the addresses that older history entries stored, in the database and in the answer", async () => {
    const organiser = await verified();
    const event = await anEvent();
    let after = smtp.messages.length;
    await claim(organiser, event.id);
    const code = await codeMailedTo(event.contactEmail!, after);
    await confirm(organiser, event.id, code);
    // Entries as claims wrote them before: the address typed and the one the code went to.
    const legacy = await t.database.db
      .insert(eventHistory)
      .values([
        {
          eventId: event.id,
          type: "organizer_validation_sent",
          userId: organiser.id + 1000,
          data: { recipient: "contact", email: event.contactEmail, givenEmail: "old.typed@gmail.com" },
          createdAt: now,
        },
        {
          eventId: event.id,
          type: "organizer_validation",
          userId: organiser.id,
          data: { email: "old.given@club.example.org" },
          createdAt: now,
        },
      ])
      .returning({ id: eventHistory.id });
    after = smtp.messages.length;

    const before = await history(organiser.client, event.id);
    expect(before.body).not.toContain("old.typed@gmail.com");
    expect(before.body).not.toContain("old.given@club.example.org");
    expect(before.body).not.toContain(event.contactEmail!);

    // Migration 0010 rewrites such rows in place.
    const migration = fs.readFileSync(
      new URL("../../db/migrations/0010_history_without_claim_addresses.sql", import.meta.url),
      "utf8",
    );
    await t.database.db.execute(sql.raw(migration));
    const rows = await t.database.db.select().from(eventHistory).where(eq(eventHistory.eventId, event.id));
    const byId = new Map(rows.map((r) => [r.id, r.data]));
    expect(byId.get(legacy[0].id)).toEqual({ recipient: "contact" });
    expect(byId.get(legacy[1].id)).toEqual({ recipient: "given" });
    expect(JSON.stringify(rows.map((r) => r.data))).not.toContain("@");
  });
});

describe("contact the organiser", () => {
  const message = (overrides: Record<string, unknown> = {}) => ({
    name: "Jules Coureur",
    email: "jules.coureur@example.com",
    message: "Bonjour, y a-t-il une navette depuis la gare le matin de la course ?",
    ...overrides,
  });

  it("relays the message with replies to the sender, and never shows the organiser's address", async () => {
    const event = await anEvent();
    const visitor = newClient();
    const after = smtp.messages.length;
    const response = await call(visitor, "/api/send-contact-organizer", message({ eventId: event.id }));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect(response.body).not.toContain("@");
    const mail = await smtp.waitFor((m) => m.to.includes(event.contactEmail!) && smtp.messages.indexOf(m) >= after);
    expect(mail.headers["reply-to"]).toContain("jules.coureur@example.com");
    // « de Les Sentiers… » reads « des Sentiers… » (French elision), as the subject is written.
    expect(mail.subject).toBe(elideFrench(`Nouveau message à propos de ${event.name}`));
    expect(mail.text).toContain("> Bonjour, y a-t-il une navette depuis la gare le matin de la course ?");
    expect(mail.text).toContain(`/course/${event.slug}`);
  });

  it("checks the fields, ignores robots and answers no-contact without an address", async () => {
    const event = await anEvent();
    const visitor = newClient("en");
    const short = await call(visitor, "/api/send-contact-organizer", message({ eventId: event.id, message: "Hi" }));
    expect(short.statusCode).toBe(400);
    expect(short.json().error.field).toBe("message");
    const noEmail = await call(visitor, "/api/send-contact-organizer", message({ eventId: event.id, email: "" }));
    expect(noEmail.json().error).toMatchObject({ code: "EMAIL_EMPTY", field: "email" });
    const twoLines = await call(
      visitor,
      "/api/send-contact-organizer",
      message({ eventId: event.id, name: "Jules\r\nBcc: x@y.fr" }),
    );
    expect(twoLines.json().error.field).toBe("name");

    const before = await t.database.db.$count(mailMessages);
    const robot = await call(
      newClient(),
      "/api/send-contact-organizer",
      message({ eventId: event.id, website: "https://spam.example" }),
    );
    expect(robot.json()).toEqual({ ok: true });
    expect(await t.database.db.$count(mailMessages)).toBe(before);

    const silent = await anEvent({ contactEmail: null });
    const none = await call(newClient(), "/api/send-contact-organizer", message({ eventId: silent.id }));
    expect(none.statusCode).toBe(409);
    expect(none.json().error.code).toBe("NO_ORGANIZER_CONTACT");
    expect((await call(newClient(), "/api/send-contact-organizer", message({ eventId: 99_999_999 }))).statusCode).toBe(
      404,
    );
  });

  it("reaches a verified organiser when the event has no contact address", async () => {
    const event = await anEvent({ website: "https://www.trail-sans-contact.fr" });
    const member = await verified();
    const given = `orga.${event.id}@trail-sans-contact.fr`;
    let after = smtp.messages.length;
    await claim(member, event.id, given);
    await confirm(member, event.id, await codeMailedTo(given, after));
    await t.database.db.update(events).set({ contactEmail: null }).where(eq(events.id, event.id));
    after = smtp.messages.length;
    const response = await call(newClient(), "/api/send-contact-organizer", message({ eventId: event.id }));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).not.toContain(given);
    const mail = await smtp.waitFor((m) => m.to.includes(given) && smtp.messages.indexOf(m) >= after);
    expect(mail.subject).toContain(event.name);
  });

  it("limits messages per sender and per event", async () => {
    const event = await anEvent();
    const visitor = newClient();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await call(visitor, "/api/send-contact-organizer", message({ eventId: event.id }))).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await call(visitor, "/api/send-contact-organizer", message({ eventId: event.id }));
    expect(limited.json().error.code).toBe("TOO_MANY_ATTEMPTS");
    // Twenty a day reach one event, from anywhere.
    let last = 0;
    for (let i = 0; i < 16; i++) {
      last = (await call(newClient(), "/api/send-contact-organizer", message({ eventId: event.id }))).statusCode;
    }
    expect(last).toBe(429);
  });
});

describe("invite a friend", () => {
  it("mails each friend an invitation with the event, the date and the message", async () => {
    const member = await verified();
    const event = await anEvent();
    const friends = [uniqueEmail("ami"), uniqueEmail("amie")];
    const after = smtp.messages.length;
    const response = await call(member.client, "/api/send-invitation", {
      eventId: event.id,
      emails: [friends[0], friends[1], friends[1].toUpperCase()],
      message: "On s'inscrit ensemble ?",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ ok: true, sent: 2 });
    for (const friend of friends) {
      const mail = await smtp.waitFor((m) => m.to.includes(friend) && smtp.messages.indexOf(m) >= after);
      expect(mail.subject).toBe(`Camille Organisatrice vous invite à ${event.name}`);
      expect(mail.text).toContain("> On s'inscrit ensemble ?");
      expect(mail.text).toContain(`/course/${event.slug}`);
      expect(mail.headers["reply-to"]).toBeUndefined();
    }
  });

  it("is for verified members, with one to five friends", async () => {
    const event = await anEvent();
    const body = { eventId: event.id, emails: ["ami@example.com"] };
    const anonymous = await call(newClient(), "/api/send-invitation", body);
    expect(anonymous.statusCode).toBe(401);
    const unverified = await registered();
    expect((await call(unverified.client, "/api/send-invitation", body)).json().error.code).toBe(
      "EMAIL_VERIFICATION_REQUIRED",
    );
    const member = await verified();
    expect((await call(member.client, "/api/send-invitation", { eventId: event.id, emails: [] })).statusCode).toBe(400);
    const six = Array.from({ length: 6 }, (_, i) => `ami${i}@example.com`);
    const tooMany = await call(member.client, "/api/send-invitation", { eventId: event.id, emails: six });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.field).toBe("emails");
    const bad = await call(member.client, "/api/send-invitation", { eventId: event.id, emails: ["ami@", "b@c.fr"] });
    expect(bad.json().error).toMatchObject({ code: "EMAIL_INVALID", field: "emails.0" });
  });

  it("limits invitations per member and per friend", async () => {
    const event = await anEvent();
    const member = await verified();
    const friend = uniqueEmail("ami");
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await call(member.client, "/api/send-invitation", { eventId: event.id, emails: [friend] })).statusCode,
      );
    }
    // Three a day reach one address.
    expect(statuses).toEqual([200, 200, 200, 429]);
    let last = 0;
    for (let i = 0; i < 8; i++) {
      last = (await call(member.client, "/api/send-invitation", { eventId: event.id, emails: [uniqueEmail("x")] }))
        .statusCode;
    }
    // Ten sends a day per member (the refused one counted too).
    expect(last).toBe(429);
  });
});
