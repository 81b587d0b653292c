import { and, eq, isNotNull } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { UNSAFE_DataWithResponseInit } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "../app/context.ts";
import type { FormActionData } from "../app/form-action.server.ts";
import { action as eventAction } from "../app/routes/event.tsx";
import { action as forgotAction } from "../app/routes/forgot-password.tsx";
import { action as loginAction } from "../app/routes/login.tsx";
import { action as registerAction } from "../app/routes/register.tsx";
import { events } from "../features/events/events.tables.ts";
import { accessHeaders, createTestApp, type TestApp } from "../tests/api/harness.ts";
import { pageApi } from "./page-api.server.ts";

/**
 * The forms that work without JavaScript post to their page's action, which reads them with the
 * same contract and calls the same API route in process, as the visitor: these run the actions
 * as React Router would, against the real API.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let counter = 0;
const address = (name: string) => `${name}.${++counter}.${Date.now().toString(36)}@example.fr`;

/** A page request as Fastify sees it (the browser's headers, its address). */
function visitor(headers: Record<string, string> = {}): FastifyRequest {
  return {
    headers: { "user-agent": "Test browser", "sec-fetch-site": "same-origin", ...headers },
    ip: `198.51.100.${++counter % 250}`,
    host: "localhost",
  } as unknown as FastifyRequest;
}

function args(path: string, fields: Record<string, string>, headers?: Record<string, string>) {
  const request = new Request(`http://localhost${path}`, { method: "POST", body: new URLSearchParams(fields) });
  const context = { api: pageApi(t.app, visitor(headers)) } as unknown as AppContext;
  return { request, context, params: {}, unstable_pattern: "" } as never;
}

type Answer = Response | UNSAFE_DataWithResponseInit<FormActionData<{ sentTo: string; sent: boolean }>>;
const asData = (answer: Answer) => {
  if (answer instanceof Response) throw new Error(`a redirect to ${answer.headers.get("location")}`);
  return { status: answer.init?.status ?? 200, ...answer.data };
};

describe("forms posted without JavaScript", () => {
  it("registers through the API: the session cookie comes back with the redirect to the verification", async () => {
    const fields = {
      firstName: "Léa",
      lastName: "Dubois",
      email: address("lea"),
      password: "montagne 2026",
      passwordConfirmation: "montagne 2026",
      terms: "on",
      locale: "fr",
    };
    const invalid = asData(
      (await registerAction(args("/inscription?next=%2Fcourse%2Fx", { ...fields, terms: "" }))) as Answer,
    );
    expect(invalid.status).toBe(400);
    expect(invalid.result.error).toEqual({ terms: ["Vous devez accepter les conditions d'utilisation."] });
    // Typed values come back to fill the form again, never the passwords.
    expect(invalid.result.initialValue).toMatchObject({ email: fields.email, firstName: "Léa" });
    expect(JSON.stringify(invalid.result)).not.toContain("montagne");

    const done = (await registerAction(args("/inscription?next=%2Fcourse%2Fx", fields))) as Response;
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/user/verification?next=%2Fcourse%2Fx");
    expect(done.headers.getSetCookie().join()).toMatch(/^dossard_session=/);

    const again = asData((await registerAction(args("/inscription", fields))) as Answer);
    expect(again.status).toBe(409);
    expect(again.result.error).toEqual({ email: ["Cette adresse e-mail est déjà utilisée."] });
  });

  it("signs in: a wrong password above the form, in the page's language; the right one goes on to `next`", async () => {
    const email = address("marc");
    const password = "ancien mot 1";
    const created = await t.app.inject({
      method: "POST",
      url: "/api/register",
      headers: accessHeaders,
      payload: { email, password, passwordConfirmation: password, firstName: "Marc", lastName: "Petit", terms: true },
    });
    expect(created.statusCode).toBe(201);

    const wrong = asData((await loginAction(args("/en/login", { email, password: "not it" }))) as Answer);
    expect(wrong.status).toBe(401);
    expect(wrong.result.error).toEqual({ "": ["Incorrect identifier or password."] });

    const right = (await loginAction(
      args("/login?next=%2Fuser%2Fprofil", { email, password, remember: "on" }),
    )) as Response;
    expect(right.headers.get("location")).toBe("/user/profil");
    expect(right.headers.getSetCookie().join()).toMatch(/^dossard_session=.*Max-Age=/);

    // Somewhere unsafe to go next: home instead.
    const home = (await loginAction(args("/login?next=https%3A%2F%2Fevil.example", { email, password }))) as Response;
    expect(home.headers.get("location")).toBe("/");
  });

  it("asks for a reset link and says where it went", async () => {
    const email = address("nina");
    const sent = asData((await forgotAction(args("/mot-de-passe-oublie", { email, locale: "fr" }))) as Answer);
    expect(sent.status).toBe(200);
    expect(sent.sentTo).toBe(email);
    const bad = asData((await forgotAction(args("/mot-de-passe-oublie", { email: "nina@" }))) as Answer);
    expect(bad.result.error).toEqual({ email: ["Adresse e-mail invalide."] });
  });

  it("writes to an organiser from the event page", async () => {
    const [event] = await t.database.db
      .select({ id: events.id, slug: events.slug })
      .from(events)
      .where(and(eq(events.status, "active"), isNotNull(events.contactEmail)))
      .limit(1);
    if (!event) throw new Error("no event with a contact address");
    const fields = { eventId: String(event.id), name: "Jules", email: "jules@example.com", website: "" };
    const short = asData((await eventAction(args(`/course/${event.slug}`, { ...fields, message: "Hi" }))) as Answer);
    expect(short.status).toBe(400);
    expect(Object.keys(short.result.error ?? {})).toEqual(["message"]);
    const done = asData(
      (await eventAction(
        args(`/course/${event.slug}`, { ...fields, message: "Bonjour, le parking est-il gratuit ?" }),
      )) as Answer,
    );
    expect(done).toMatchObject({ status: 200, sent: true });
  });

  it("refuses a form posted from another site before it reaches the API", async () => {
    const fields = { email: "someone@example.fr", password: "whatever 1" };
    const crossSite = asData((await loginAction(args("/login", fields, { "sec-fetch-site": "cross-site" }))) as Answer);
    expect(crossSite.status).toBe(403);
    expect(crossSite.result.error?.[""]).toHaveLength(1);
    // Which requests count as the site's own: server/same-origin.api.test.ts.
  });
});
