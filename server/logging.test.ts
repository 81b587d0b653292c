import { Writable } from "node:stream";
import { DrizzleQueryError } from "drizzle-orm/errors";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { loggerOptions, scrubError, scrubMessage } from "./logging.server.ts";

/** A pino logger with the server's options, writing its lines into an array. */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const { hooks, redact, serializers, level } = loggerOptions("info") as pino.LoggerOptions;
  const logger = pino({ hooks, redact, serializers, level }, stream);
  return { logger, text: () => lines.join("") };
}

/** What PGlite and node-postgres attach to a failed statement. */
function databaseError() {
  const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email_unique"'), {
    code: "23505",
    constraint: "users_email_unique",
    table: "users",
    detail: "Key (lower(email))=(ana@example.fr) already exists.",
    where: "unnamed portal parameter $1 = '...'",
    params: ["ana@example.fr", "+33 6 00 00 00 00"],
  });
  return new DrizzleQueryError('insert into "users" ("email", "phone") values ($1, $2)', cause.params, cause);
}

describe("scrubMessage", () => {
  it("cuts Drizzle's parameters and masks quoted values and e-mail addresses", () => {
    expect(scrubMessage("Failed query: select 1 where a = $1\nparams: ana@example.fr,12")).toBe(
      "Failed query: select 1 where a = $1",
    );
    expect(scrubMessage('invalid input syntax for type integer: "ana@example.fr"')).toBe(
      'invalid input syntax for type integer: "…"',
    );
    expect(scrubMessage('value "99999999999" is out of range for type integer')).toBe(
      'value "…" is out of range for type integer',
    );
    expect(scrubMessage("550 <ana@example.fr>: Recipient address rejected")).toBe(
      "550 <[email]>: Recipient address rejected",
    );
    expect(scrubMessage('relation "users" does not exist')).toBe('relation "users" does not exist');
  });
});

describe("scrubError", () => {
  it("keeps the type, the SQL, the code and the constraint, without the values", () => {
    const original = databaseError();
    const safe = scrubError(original);
    expect(safe).toBeInstanceOf(DrizzleQueryError);
    expect(safe.message).toBe('Failed query: insert into "users" ("email", "phone") values ($1, $2)');
    expect(safe.stack).not.toContain("ana@example.fr");
    expect((safe as unknown as Record<string, unknown>).params).toBeUndefined();
    const cause = safe.cause as unknown as Record<string, unknown>;
    expect(cause.code).toBe("23505");
    expect(cause.constraint).toBe("users_email_unique");
    expect(cause.detail).toBeUndefined();
    expect(cause.params).toBeUndefined();
    expect(cause.where).toBeUndefined();
    // The original is untouched: services still read it.
    expect(original.params).toEqual(["ana@example.fr", "+33 6 00 00 00 00"]);
  });
});

describe("the server's logger", () => {
  it("never writes a failed statement's values, however the error is handed to it", () => {
    const { logger, text } = capture();
    logger.error(databaseError());
    logger.error({ err: databaseError() }, "request failed");
    logger.error({ err: databaseError() });
    logger.child({ job: 3 }).warn(databaseError(), "job failed");
    logger.error(`failed: ${databaseError().message}`);
    const out = text();
    expect(out).toContain("users_email_unique");
    expect(out).toContain("insert into");
    expect(out).not.toContain("ana@example.fr");
    expect(out).not.toContain("+33 6 00 00 00 00");
  });

  it("redacts passwords, tokens, codes, cookies and authorization headers", () => {
    const { logger, text } = capture();
    logger.info({
      body: { email: "x", password: "hunter2 secret", code: "48213" },
      query: { token: "reset-token-value" },
      req: { headers: { authorization: "Bearer abc.def", cookie: "dossard_session=session-value" } },
      provider: { clientSecret: "client-secret-value", accessToken: "access-token-value" },
    });
    const out = text();
    for (const secret of [
      "hunter2 secret",
      "48213",
      "reset-token-value",
      "Bearer abc.def",
      "session-value",
      "client-secret-value",
      "access-token-value",
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain("[redacted]");
  });
});
