/**
 * Bad input never fails the server: every write route of the API (enumerated from the app's own
 * route table, so a new route is covered without touching this file) is sent hostile bodies, path
 * parameters, query strings and multipart uploads, as an admin with the access header so that
 * validation is reached. Each answer must be a 4xx with the JSON error shape, or a success for
 * hostile-looking values that are legitimate text (a race may be named "<script>"); never a 5xx.
 */
import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { profileBodySchema } from "../features/accounts/accounts.contract.ts";
import { users } from "../features/identity/identity.tables.ts";
import { apiErrorBodySchema } from "../shared/api-error.ts";
import {
  BAD_BODIES,
  BAD_PATH_VALUES,
  badMultipartBodies,
  jsonSchemaOf,
  leavesOf,
  mutationsFor,
  sampleOf,
  withValue,
} from "../tests/api/bad-input-corpus.ts";
import { accessHeaders, createTestApp, type TestApp } from "../tests/api/harness.ts";
import { type AppRoute, routeRecorder } from "../tests/api/routes.ts";

/** Routes whose body schema does not say what they take (it depends on a path parameter). */
const BODY_SCHEMAS: Record<string, z.ZodType> = { "POST /api/user/:type/:id": profileBodySchema };

const recorder = routeRecorder();
let t: TestApp;
let admin: { id: number; cookie: string };
let requests = 0;

beforeAll(async () => {
  t = await createTestApp({ onRoute: recorder.onRoute });
  admin = await newAdmin();
});
afterAll(() => t?.close());

/** A fresh address per request: rate limits must not hide what validation says. */
const nextAddress = () => {
  requests++;
  return `10.77.${(requests >> 8) & 255}.${requests & 255}`;
};

async function newAdmin() {
  const email = `fuzz.admin.${Date.now().toString(36)}.${requests}@example.fr`;
  const response = await t.app.inject({
    method: "POST",
    url: "/api/register",
    remoteAddress: nextAddress(),
    headers: { ...accessHeaders, "content-type": "application/json" },
    payload: JSON.stringify({
      email,
      password: "the admin's own password 1",
      passwordConfirmation: "the admin's own password 1",
      firstName: "Fuzz",
      lastName: "Admin",
      terms: true,
    }),
  });
  expect(response.statusCode, response.body).toBe(201);
  const id = response.json().user.id as number;
  await t.database.db.update(users).set({ role: "admin", emailStatus: "verified" }).where(eq(users.id, id));
  const cookie = response.cookies.find((c) => c.name === "dossard_session");
  return { id, cookie: `dossard_session=${cookie?.value}` };
}

/** Some writes sign the admin out (logout, a password change): a new one takes over. */
async function ensureAdmin() {
  const me = await t.app.inject({ method: "GET", url: "/api/me", headers: { cookie: admin.cookie } });
  if (me.statusCode !== 200) admin = await newAdmin();
}

type Failure = string;

function judge(
  failures: Failure[],
  what: string,
  response: LightMyRequestResponse,
  mustRefuse: boolean,
): LightMyRequestResponse {
  const status = response.statusCode;
  if (status >= 500) {
    failures.push(`${what}: ${status} ${response.body.slice(0, 200)}`);
  } else if (status >= 400) {
    let body: unknown;
    try {
      body = response.json();
    } catch {
      body = undefined;
    }
    if (!apiErrorBodySchema.safeParse(body).success) {
      failures.push(`${what}: ${status} without the JSON error shape: ${response.body.slice(0, 200)}`);
    }
  } else if (mustRefuse) {
    failures.push(`${what}: accepted with ${status}`);
  }
  return response;
}

function paramNames(url: string): { name: string; optional: boolean }[] {
  return [...url.matchAll(/:(\w+)(\?)?/g)].map((m) => ({ name: m[1] as string, optional: Boolean(m[2]) }));
}

/** Values of a path parameter its schema accepts: an enum's first value, else ids (the admin's own first). */
function paramCandidates(route: AppRoute, name: string): string[] {
  const schema = route.schema?.params;
  const json = jsonSchemaOf(schema) as { properties?: Record<string, never> } | null;
  const candidates = [String(admin.id), "1", "2", "0"];
  const property = json?.properties?.[name];
  if (property) candidates.unshift(String(sampleOf(property, name)));
  const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {};
  const valid = candidates.filter((c) => !shape[name] || shape[name].safeParse(c).success);
  return valid.length ? [...new Set(valid)] : ["1"];
}

function validParams(route: AppRoute): Record<string, string> {
  return Object.fromEntries(paramNames(route.url).map(({ name }) => [name, paramCandidates(route, name)[0]]));
}

/**
 * Path parameters that let a valid body through to the service (an event the admin may edit, not
 * one that is missing), so that hostile fields reach the database: the first candidate of each
 * parameter whose answer is a success, else the first the schema accepts.
 */
async function reachableParams(route: AppRoute, body: { contentType: string; payload: string }) {
  const params = validParams(route);
  for (const { name } of paramNames(route.url)) {
    for (const candidate of paramCandidates(route, name)) {
      const tried = { ...params, [name]: candidate };
      if ((await send(route, fill(route.url, tried), body)).statusCode < 400) {
        params[name] = candidate;
        break;
      }
    }
  }
  return params;
}

function fill(url: string, params: Record<string, string>): string {
  return url.replace(/:(\w+)\??/g, (_, name: string) => params[name] ?? "1");
}

function send(
  route: AppRoute,
  url: string,
  body?: { contentType: string; payload: string | Buffer },
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: route.method as "POST",
    url,
    remoteAddress: nextAddress(),
    headers: {
      ...accessHeaders,
      cookie: admin.cookie,
      ...(body ? { "content-type": body.contentType } : {}),
    },
    ...(body ? { payload: body.payload } : {}),
  });
}

const json = (value: unknown) => ({ contentType: "application/json", payload: JSON.stringify(value) });
const isMultipart = (route: AppRoute) =>
  ((route.schema as { consumes?: string[] } | undefined)?.consumes ?? []).includes("multipart/form-data");

describe("hostile input on every write route of the API", () => {
  it("finds the write routes in the app's own route table", () => {
    const writes = recorder.apiWrites().map((r) => `${r.method} ${r.url}`);
    expect(writes.length).toBeGreaterThan(25);
    expect(writes).toEqual(
      expect.arrayContaining(["POST /api/event/:id", "POST /api/register", "POST /api/upload/event-photo"]),
    );
  });

  it("answers hostile JSON fields with a 4xx, never a 5xx", async () => {
    const failures: Failure[] = [];
    for (const route of recorder.apiWrites()) {
      if (isMultipart(route)) continue;
      const key = `${route.method} ${route.url}`;
      const schema = BODY_SCHEMAS[key] ?? route.schema?.body;
      const jsonSchema = jsonSchemaOf(schema);
      if (!jsonSchema || !(schema instanceof z.ZodType)) continue;
      await ensureAdmin();
      // Mutations are applied one at a time to a sample without optional references to other rows.
      const sample = sampleOf(jsonSchema, "", false);
      const url = fill(route.url, await reachableParams(route, json(sample)));
      const targets = leavesOf(sampleOf(jsonSchema));
      // The corpus is only worth something when the rest of the body is valid.
      const parsed = schema.safeParse(sample);
      if (!parsed.success) {
        failures.push(`${key}: the generated sample is refused (${z.prettifyError(parsed.error)}): add a sample`);
        continue;
      }
      // DEBUG_CORPUS=1 prints what each route's valid sample gets: how deep its mutations reach.
      if (process.env.DEBUG_CORPUS) {
        const probe = await send(route, url, json(sample));
        console.log(`SAMPLE ${key} ${url} -> ${probe.statusCode} ${probe.body.slice(0, 120)}`);
      }
      for (const leaf of targets) {
        for (const mutation of mutationsFor(leaf.value)) {
          const response = await send(route, url, json(withValue(sample, leaf.path, mutation.value)));
          judge(failures, `${key} ${leaf.path.join(".")} = ${mutation.label}`, response, mutation.mustRefuse);
        }
      }
      // Keys that are not fields: prototype pollution and bad characters in names.
      for (const extra of ['{"__proto__": {"role": "admin"}}', '{"constructor": {"prototype": {"role": "admin"}}}']) {
        const payload = `${JSON.stringify(sample).slice(0, -1)}${Object.keys(sample as object).length ? "," : ""}${extra.slice(1)}`;
        judge(failures, `${key} ${extra}`, await send(route, url, { contentType: "application/json", payload }), true);
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it("answers malformed bodies with a 4xx, never a 5xx", async () => {
    const failures: Failure[] = [];
    for (const route of recorder.apiWrites()) {
      await ensureAdmin();
      const key = `${route.method} ${route.url}`;
      const url = fill(route.url, validParams(route));
      const hasBody = Boolean(route.schema?.body) || isMultipart(route);
      for (const body of BAD_BODIES) {
        judge(failures, `${key} ${body.label}`, await send(route, url, body), body.always || hasBody);
      }
      // Query strings: a NUL or a lone surrogate is refused wherever it is.
      judge(failures, `${key} NUL in the query`, await send(route, `${url}?q=a%00b&_locale=fr`), true);
      judge(failures, `${key} lone surrogate in the query`, await send(route, `${url}?q=%uD800`), false);
      judge(failures, `${key} invalid UTF-8 in the query`, await send(route, `${url}?q=%ED%A0%80`), false);
    }
    expect(failures).toEqual([]);
  });

  it("answers hostile path parameters with a 4xx, never a 5xx", async () => {
    const failures: Failure[] = [];
    for (const route of recorder.apiWrites()) {
      const names = paramNames(route.url);
      if (!names.length) continue;
      await ensureAdmin();
      const key = `${route.method} ${route.url}`;
      const params = validParams(route);
      const schema = BODY_SCHEMAS[key] ?? route.schema?.body;
      const jsonSchema = jsonSchemaOf(schema);
      const body = jsonSchema ? json(sampleOf(jsonSchema, "", false)) : undefined;
      for (const { name } of names) {
        for (const bad of BAD_PATH_VALUES) {
          const response = await send(route, fill(route.url, { ...params, [name]: bad.raw }), body);
          judge(failures, `${key} :${name} = ${bad.label}`, response, true);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("answers hostile path parameters and query strings on read routes with a 4xx, never a 5xx", async () => {
    const failures: Failure[] = [];
    await ensureAdmin();
    const reads = recorder.routes.filter((r) => r.method === "GET" && r.url.startsWith("/api/"));
    expect(reads.length).toBeGreaterThan(20);
    for (const route of reads) {
      const key = `GET ${route.url}`;
      const params = validParams(route);
      const url = fill(route.url, params);
      judge(failures, `${key} NUL in the query`, await send(route, `${url}?q=a%00b`), true);
      judge(
        failures,
        `${key} hostile query values`,
        await send(route, `${url}?page=2147483648&from=9999-12-31&q=%uD800`),
        false,
      );
      for (const { name } of paramNames(route.url)) {
        for (const bad of BAD_PATH_VALUES) {
          // Free-text parameters (slugs) may answer 404 or even 200 to a strange value; never a 5xx.
          const response = await send(route, fill(route.url, { ...params, [name]: bad.raw }));
          judge(failures, `${key} :${name} = ${bad.label}`, response, bad.label === "NUL");
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("answers malformed multipart uploads with a 4xx, never a 5xx", async () => {
    const failures: Failure[] = [];
    const uploads = recorder.apiWrites().filter(isMultipart);
    expect(uploads.length).toBeGreaterThanOrEqual(3);
    for (const route of uploads) {
      await ensureAdmin();
      const key = `${route.method} ${route.url}`;
      const url = fill(route.url, validParams(route));
      for (const body of badMultipartBodies()) {
        judge(failures, `${key} ${body.label}`, await send(route, url, body), true);
      }
    }
    expect(failures).toEqual([]);
  });
});
