import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessHeaders, createTestApp, type TestApp } from "../../tests/api/harness.ts";
import { startTestSmtpServer, type TestSmtpServer } from "../../tests/support/smtp-server.ts";
import type { Actor } from "../events/event-access.server.ts";
import { users } from "../identity/identity.tables.ts";
import { eventOrganizers } from "./editor.tables.ts";

/**
 * A member's new listing: acknowledged by mail (their language, what happens next, a link to the
 * pending page), and its page shown to its editors only while it waits for moderation.
 */
let t: TestApp;
let smtp: TestSmtpServer;
let ip = 0;
const PUBLIC_URL = "https://dossard.test";

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL }, runJobs: true });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

type Member = Actor & { cookie: string; ip: string; email: string };

async function member(options: { role?: Actor["role"]; locale?: "fr" | "en" } = {}): Promise<Member> {
  const address = `10.7.${++ip >> 8}.${ip & 255}`;
  const email = `submitter.${ip}.${Date.now().toString(36)}@example.fr`;
  const response = await t.app.inject({
    method: "POST",
    url: "/api/register",
    remoteAddress: address,
    headers: { ...accessHeaders, "content-type": "application/json" },
    payload: JSON.stringify({
      email,
      password: "long enough 1",
      passwordConfirmation: "long enough 1",
      firstName: "Lucie",
      lastName: `Martin ${ip}`,
      terms: true,
    }),
  });
  expect(response.statusCode, response.body).toBe(201);
  const id = response.json().user.id as number;
  const role = options.role ?? "member";
  await t.database.db
    .update(users)
    .set({ role, emailStatus: "verified", locale: options.locale ?? "fr" })
    .where(eq(users.id, id));
  const cookie = response.cookies.find((c) => c.name === "dossard_session");
  return { id, role, emailStatus: "verified", cookie: `dossard_session=${cookie?.value}`, ip: address, email };
}

async function list(who: Member, name: string) {
  const start = "2026-10-04";
  const response = await t.app.inject({
    method: "POST",
    url: "/api/event/0",
    remoteAddress: who.ip,
    headers: { ...accessHeaders, cookie: who.cookie, "content-type": "application/json" },
    payload: JSON.stringify({
      name,
      sport: "running",
      isCompetition: true,
      isConnected: false,
      scope: "regional",
      startDate: start,
      endDate: start,
      dateConfirmed: false,
      certified: false,
      communeCode: "38185",
      city: "Grenoble",
      countryCode: "FR",
      courses: [{ name: "Le 10", type: "race", distance: 10_000, date: start, prices: [] }],
    }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().event as { id: number; slug: string; status: string };
}

describe("the acknowledgement of a new listing", () => {
  it("mails the member in French: the event, what happens next, the link to the pending page", async () => {
    const owner = await member();
    const event = await list(owner, "Corrida des Remparts");
    expect(event.status).toBe("pending");
    const mail = await smtp.waitFor((m) => m.to.includes(owner.email) && m.subject.includes("Corrida"));
    expect(mail.subject).toBe("Nous avons bien reçu « Corrida des Remparts »");
    expect(mail.text).toContain("Bonjour Lucie");
    expect(mail.text).toContain("L'équipe Dossard la relit avant de la publier");
    expect(mail.text).toContain(`Voir ma page en attente\n${PUBLIC_URL}/course/${event.slug}`);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/course/${event.slug}"`);
  });

  it("mails a member who reads English in English, with the English page address", async () => {
    const owner = await member({ locale: "en" });
    const event = await list(owner, "Riverside Night Run");
    const mail = await smtp.waitFor((m) => m.to.includes(owner.email) && m.subject.includes("Riverside"));
    expect(mail.subject).toBe("We received “Riverside Night Run”");
    expect(mail.text).toContain("usually within two working days");
    expect(mail.text).toContain(`${PUBLIC_URL}/en/race/${event.slug}`);
  });

  it("sends nothing when an admin lists an event: it is live at once", async () => {
    const admin = await member({ role: "admin" });
    const event = await list(admin, "Foulées de l'Administration");
    expect(event.status).toBe("active");
    // The jobs runner delivers within a second; a mail to this admin would be there by then.
    const probe = await member();
    await list(probe, "Course témoin");
    await smtp.waitFor((m) => m.to.includes(probe.email) && m.subject.includes("Course témoin"));
    expect(smtp.messages.filter((m) => m.to.includes(admin.email) && /Foulées/.test(m.subject))).toEqual([]);
  });
});

describe("the pending page", () => {
  it("is found for the owner, the event's organisers and admins; for nobody else", async () => {
    const owner = await member();
    const event = await list(owner, "Trail du Belvédère");
    const organiser = await member();
    await t.database.db
      .insert(eventOrganizers)
      .values({ eventId: event.id, userId: organiser.id, email: organiser.email });
    const admin = await member({ role: "admin" });
    const stranger = await member();
    const pages = t.app.services.eventDetails;
    for (const editor of [owner, organiser, admin]) {
      const page = await pages.page(event.slug, editor);
      expect(page?.pending).toBe(true);
      expect(page?.event.name).toBe("Trail du Belvédère");
    }
    expect(await pages.page(event.slug, stranger)).toBeNull();
    expect(await pages.page(event.slug, null)).toBeNull();
    // Nor through the public API.
    const api = await t.app.inject({ method: "GET", url: `/api/event/${event.id}`, headers: accessHeaders });
    expect(api.statusCode).toBe(404);
  });

  it("is an ordinary public page, without the pending mark, once validated", async () => {
    const admin = await member({ role: "admin" });
    const event = await list(admin, "Boucles du Vercors");
    const page = await t.app.services.eventDetails.page(event.slug, null);
    expect(page?.event.name).toBe("Boucles du Vercors");
    expect(page?.pending).toBeUndefined();
  });
});
