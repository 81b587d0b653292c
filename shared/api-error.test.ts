import { describe, expect, it } from "vitest";
import enCommon from "../locales/en/common.json";
import frCommon from "../locales/fr/common.json";
import {
  ApiError,
  apiErrorBody,
  apiErrorBodySchema,
  apiErrorMessage,
  ERROR_CODES,
  errorCatalogue,
  isApiError,
  isErrorCode,
  redirectsToLogin,
  toApiError,
} from "./api-error.ts";

describe("error catalogue (spec section 8)", () => {
  it("has a code for every user-facing message", () => {
    expect(ERROR_CODES).toEqual(
      expect.arrayContaining([
        "GENERIC",
        "NOT_FOUND",
        "LOGIN_REQUIRED",
        "EMAIL_VERIFICATION_REQUIRED",
        "ACCOUNT_CONFIRMATION_REQUIRED",
        "INVALID_TOKEN",
        "INVALID_GRANT",
        "BAD_LOGIN",
        "OAUTH_FAILURE",
        "OAUTH_NO_EMAIL",
        "EMAIL_ALREADY_USED",
        "EMAIL_ALREADY_SENT",
        "GEOLOCATION_NOT_ALLOWED",
        "FILE_TOO_HEAVY",
        "FILE_NOT_FOUND",
        "ORDER_NOT_FOUND",
        "ITEM_NOT_FOUND",
        "NO_POSTER_CREDIT",
        "POSTER_EDIT_LIMIT",
        "CANNOT_DELETE_ALL_COURSES",
        "NO_RESULTS",
        "PASSWORDS_NOT_IDENTICAL",
        "PASSWORD_TOO_SHORT",
        "EMAIL_INVALID",
        "EMAIL_EMPTY",
        "MISSING_ACCESS_HEADER",
        "BAD_REQUEST",
      ]),
    );
  });

  it("points every code at a key translated in both languages", () => {
    for (const code of ERROR_CODES) {
      const name = errorCatalogue[code].key.replace("errors.", "") as keyof typeof frCommon.errors;
      expect(frCommon.errors[name], code).toBeTruthy();
      expect(enCommon.errors[name], code).toBeTruthy();
    }
  });

  it("maps codes to statuses, keeping 403 for a role above the caller's (the client redirects to /login on 403)", () => {
    expect(errorCatalogue.GENERIC.status).toBe(500);
    expect(errorCatalogue.NOT_FOUND.status).toBe(404);
    expect(errorCatalogue.ITEM_NOT_FOUND.status).toBe(404);
    expect(errorCatalogue.ORDER_NOT_FOUND.status).toBe(404);
    expect(errorCatalogue.BAD_LOGIN.status).toBe(401);
    expect(errorCatalogue.FILE_TOO_HEAVY.status).toBe(413);
    expect(errorCatalogue.NO_POSTER_CREDIT.status).toBe(402);
    expect(errorCatalogue.EMAIL_ALREADY_USED.status).toBe(409);
    expect(errorCatalogue.EMAIL_ALREADY_SENT.status).toBe(429);
    expect(errorCatalogue.BAD_REQUEST.status).toBe(400);
    const forbidden = ERROR_CODES.filter((code) => redirectsToLogin(errorCatalogue[code].status));
    // A write from another site is refused with 403 too (it never comes from the site's own pages).
    expect(forbidden.sort()).toEqual(["CROSS_SITE_REQUEST", "FORBIDDEN"]);
    expect(errorCatalogue.LOGIN_REQUIRED.status).toBe(401);
    expect(errorCatalogue.TOO_MANY_ATTEMPTS.status).toBe(429);
  });

  it("uses the existing errors.* keys", () => {
    expect(errorCatalogue.GENERIC.key).toBe("errors.generic");
    expect(errorCatalogue.NOT_FOUND.key).toBe("errors.notFound");
    expect(errorCatalogue.ITEM_NOT_FOUND.key).toBe("errors.itemNotFound");
    expect(errorCatalogue.BAD_LOGIN.key).toBe("errors.badLogin");
    expect(errorCatalogue.PASSWORD_TOO_SHORT.key).toBe("errors.passwordTooShort");
  });

  it("recognises codes", () => {
    expect(isErrorCode("BAD_LOGIN")).toBe(true);
    expect(isErrorCode("bad_login")).toBe(false);
    expect(isErrorCode("toString")).toBe(false);
    expect(isErrorCode(42)).toBe(false);
  });
});

describe("messages and bodies", () => {
  it("translates messages, French by default", () => {
    expect(apiErrorMessage("BAD_LOGIN")).toBe("Identifiant ou mot de passe incorrect.");
    expect(apiErrorMessage("BAD_LOGIN", "en")).toBe("Incorrect identifier or password.");
    expect(apiErrorMessage("PASSWORD_TOO_SHORT", "fr")).toBe("Le mot de passe doit contenir au moins 8 caractères.");
    // A field's failure never shows its internal name: its own words, else a plain sentence.
    expect(apiErrorMessage("BAD_REQUEST", "fr", "email")).toBe("Cette valeur n'est pas valable.");
    expect(apiErrorMessage("BAD_REQUEST", "fr", "countryCode")).toBe("Choisissez un pays de la liste.");
    expect(apiErrorMessage("INVALID_FIELD", "en", "zipcode")).toBe("A postcode has 5 digits.");
    expect(apiErrorMessage("INVALID_FIELD", "en", "courses.2.sport")).toBe("Choose a sport from the list.");
  });

  it("builds the { error: { code, message, field? } } shape", () => {
    expect(apiErrorBody("NOT_FOUND", "en")).toEqual({
      error: { code: "NOT_FOUND", message: "This page does not exist." },
    });
    const body = new ApiError("EMAIL_ALREADY_USED").toBody("fr");
    expect(body).toEqual({
      error: { code: "EMAIL_ALREADY_USED", message: "Cette adresse e-mail est déjà utilisée.", field: "email" },
    });
    expect(apiErrorBodySchema.parse(body)).toEqual(body);
    expect(apiErrorBodySchema.safeParse({ error: { code: "NOPE", message: "x" } }).success).toBe(false);
  });
});

describe("ApiError", () => {
  it("carries code, status, field, details and i18n key", () => {
    const error = new ApiError("FILE_TOO_HEAVY", { field: "flyer", details: { size: 12_000_000 } });
    expect(error).toBeInstanceOf(Error);
    expect(isApiError(error)).toBe(true);
    expect(error.code).toBe("FILE_TOO_HEAVY");
    expect(error.status).toBe(413);
    expect(error.field).toBe("flyer");
    expect(error.details).toEqual({ size: 12_000_000 });
    expect(error.i18nKey).toBe("errors.fileTooHeavy");
    expect(error.message).toBe("FILE_TOO_HEAVY: File too heavy.");
    expect(error.toBody("en")).not.toHaveProperty("error.details");
  });

  it("takes the catalogue's field and a status override", () => {
    expect(new ApiError("PASSWORD_TOO_SHORT").field).toBe("password");
    expect(new ApiError("NOT_FOUND").field).toBeUndefined();
    expect(new ApiError("BAD_REQUEST", { status: 405 }).status).toBe(405);
  });

  it("is rebuilt from a response body on the client", () => {
    const error = ApiError.fromBody({ error: { code: "ORDER_NOT_FOUND", message: "…" } }, 404);
    expect(error.code).toBe("ORDER_NOT_FOUND");
    expect(error.status).toBe(404);
    expect(ApiError.fromBody("<html>", 502)).toMatchObject({ code: "GENERIC", status: 502 });
    expect(ApiError.fromBody(null)).toMatchObject({ code: "GENERIC", status: 500 });
  });

  it("is recognised by its mark and code in another copy of this module, as the server bundle has", async () => {
    // A second instance of the module, as the built page bundle holds beside the sources.
    const copy = "./api-error.ts?copy";
    const other = (await import(/* @vite-ignore */ copy)) as typeof import("./api-error.ts");
    expect(other.ApiError).not.toBe(ApiError);
    const foreign = new other.ApiError("ITEM_NOT_FOUND");
    expect(foreign instanceof ApiError).toBe(false);
    expect(isApiError(foreign)).toBe(true);
    expect(other.isApiError(new ApiError("NOT_FOUND"))).toBe(true);
    expect(toApiError(foreign)).toBe(foreign);
    // Look-alikes are not: a code alone, or a mark with a code outside the catalogue.
    expect(isApiError(Object.assign(new Error("x"), { name: "ApiError", code: "NOT_FOUND", status: 404 }))).toBe(false);
    expect(isApiError(Object.assign(new ApiError("NOT_FOUND"), { code: "ENOENT" }))).toBe(false);
    expect(isApiError(null)).toBe(false);
    expect(isApiError("NOT_FOUND")).toBe(false);
  });

  it("wraps unknown errors as GENERIC", () => {
    const cause = new TypeError("boom");
    const wrapped = toApiError(cause);
    expect(wrapped).toMatchObject({ code: "GENERIC", status: 500 });
    expect(wrapped.cause).toBe(cause);
    const own = new ApiError("NO_RESULTS");
    expect(toApiError(own)).toBe(own);
  });
});
