import Fastify, { type FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { access, installAccessRules, withAccess } from "./access.server.ts";

/** The database is only read when a request is checked: registering routes never touches it. */
const noDatabase = {} as Parameters<typeof installAccessRules>[1]["db"];
const noTargets = async () => {
  throw new Error("no target is checked here");
};

describe("access rules", () => {
  it("refuses to register a route that declares no rule", async () => {
    const app = Fastify();
    installAccessRules(app, { db: noDatabase, requireTargetEditor: noTargets });
    expect(() => app.get("/api/new-thing", async () => ({}))).toThrow(/GET \/api\/new-thing declares no access rule/);
    await app.close();
  });

  it("lists every route with its rule, and gives plugin routes their scope's rule", async () => {
    const app = Fastify();
    installAccessRules(app, { db: noDatabase, requireTargetEditor: noTargets });
    app.post("/api/thing", { config: { access: access.member } }, async () => ({}));
    await app.register(
      withAccess(
        access.anyone,
        async (scope: FastifyInstance, options: { name: string }) => {
          scope.get(`/files/${options.name}`, async () => "x");
        },
        { name: "file" },
      ),
    );
    await app.ready();
    expect(app.routeAccess.map((r) => [r.method, r.url, r.access.who])).toEqual(
      expect.arrayContaining([
        ["POST", "/api/thing", "member"],
        ["GET", "/files/file", "anyone"],
      ]),
    );
    expect((await app.inject({ method: "GET", url: "/files/file" })).statusCode).toBe(200);
    await app.close();
  });
});
