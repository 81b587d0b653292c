import { describe, expect, it } from "vitest";
import { clientErrorOf } from "./errors.server.ts";
import { unstorableField } from "./input-guard.server.ts";

describe("unstorableField", () => {
  it("names where a NUL or a lone surrogate sits, in values and in keys", () => {
    expect(unstorableField({ name: "ok", courses: [{ name: "a\u0000" }] })).toBe("courses.0.name");
    expect(unstorableField({ q: "\ud800" })).toBe("q");
    expect(unstorableField({ options: { "a\u0000": true } })).toBe("options");
    expect(unstorableField({ "\udc00": 1 })).toBe("body");
    expect(unstorableField("a\u0000")).toBe("");
  });

  it("passes what is storable, and what is not text", () => {
    expect(unstorableField({ name: "🏃 Trail", n: 1, list: [true, null], nested: { deep: ["é"] } })).toBeUndefined();
    expect(unstorableField(Buffer.from([0, 0xd8, 0x00]))).toBeUndefined();
    expect(unstorableField(undefined)).toBeUndefined();
  });

  it("walks a body nested ten thousand levels deep", () => {
    let deep: unknown = "\u0000";
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(unstorableField(deep)).toMatch(/^0(\.0)+$/);
  });
});

describe("clientErrorOf", () => {
  const coded = (code: string, statusCode?: number) => Object.assign(new Error(code), { code, statusCode });

  it("maps upload and body-parser errors to the catalogue", () => {
    expect(clientErrorOf(coded("FST_REQ_FILE_TOO_LARGE", 413))).toEqual({
      code: "FILE_TOO_HEAVY",
      status: 413,
      field: "file",
    });
    expect(clientErrorOf(coded("FST_ERR_CTP_BODY_TOO_LARGE", 413))).toEqual({ code: "BAD_REQUEST", status: 413 });
    expect(clientErrorOf(coded("FST_ERR_CTP_INVALID_MEDIA_TYPE", 415))).toEqual({ code: "BAD_REQUEST", status: 415 });
    expect(clientErrorOf(coded("FST_INVALID_MULTIPART_CONTENT_TYPE", 406))).toEqual({
      code: "BAD_REQUEST",
      status: 415,
    });
    expect(clientErrorOf(coded("FST_ERR_BAD_URL", 400))).toEqual({ code: "BAD_REQUEST", status: 400 });
  });

  it("takes the multipart parser's plain errors as the client's, and nothing else", () => {
    const busboy = new Error("Unexpected end of form");
    busboy.stack = `Error: Unexpected end of form\n    at Multipart._final (/app/node_modules/@fastify/busboy/lib/types/multipart.js:1:1)`;
    expect(clientErrorOf(busboy)).toEqual({ code: "BAD_REQUEST", status: 400, field: "file" });
    expect(clientErrorOf(new Error("connection refused"))).toBeNull();
    expect(clientErrorOf(coded("FST_FILE_BUFFER_NOT_FOUND", 500))).toBeNull();
  });
});
