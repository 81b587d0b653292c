import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, testMember } from "../../tests/api/harness.ts";
import { events } from "../events/events.tables.ts";

let t: TestApp;
let eventId: number;

beforeAll(async () => {
  t = await createTestApp();
  const [first] = await t.database.db.select({ id: events.id }).from(events).limit(1);
  eventId = first.id;
});
afterAll(() => t?.close());

const actions = (id: number | string, cookie?: string) =>
  t.app.inject({ method: "GET", url: `/api/user/action/${id}`, headers: cookie ? { cookie } : {} });

describe("GET /api/user/action/{id}", () => {
  it("tells a member, the event's owner and an admin what they may do on the event", async () => {
    const member = await testMember(t);
    const owner = await testMember(t, { firstName: "Owen" });
    const admin = await testMember(t, { role: "admin" });
    await t.database.db.update(events).set({ ownerId: owner.id }).where(eq(events.id, eventId));

    const seen = async (cookie: string) => {
      const response = await actions(eventId, cookie);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers["cache-control"]).toBe("private, no-store");
      return response.json();
    };
    expect(await seen(member.cookie)).toEqual({ eventId, access: "member" });
    expect(await seen(owner.cookie)).toEqual({ eventId, access: "owner" });
    expect(await seen(admin.cookie)).toEqual({ eventId, access: "admin" });
  });

  it("asks visitors to sign in and says clearly when the event does not exist", async () => {
    expect((await actions(eventId)).statusCode).toBe(401);
    const member = await testMember(t);
    const missing = await actions(2_000_000_000, member.cookie);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe("ITEM_NOT_FOUND");
    expect((await actions("abc", member.cookie)).statusCode).toBe(400);
  });
});
