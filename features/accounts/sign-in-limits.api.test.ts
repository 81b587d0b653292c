import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browse, newBrowser, type TestBrowser } from "../../tests/api/browser.ts";
import { TEST_REFERENCE_DATE } from "../../tests/api/fixtures.ts";
import { createTestApp, type TestApp } from "../../tests/api/harness.ts";
import { LIMITS } from "../identity/rate-limit.server.ts";
import { DEVICE_COOKIE } from "./device.server.ts";

let t: TestApp;
let now = new Date(TEST_REFERENCE_DATE);
beforeAll(async () => {
  t = await createTestApp({ clock: () => now });
});
afterAll(() => t.close());

const PASSWORD = "correct horse 42";
let accounts = 0;

/** A member registered (and so signed in) from `browser`, which now knows the account. */
async function member(browser = newBrowser()) {
  const email = `limits.${++accounts}@example.fr`;
  const response = await browse(t.app, browser, "POST", "/api/register", {
    payload: {
      email,
      password: PASSWORD,
      passwordConfirmation: PASSWORD,
      firstName: "Zoé",
      lastName: "Martin",
      pseudo: "",
      terms: true,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return { email, browser, id: response.json().user.id as number };
}

const login = (browser: TestBrowser, email: string, password: string, locale = "fr") =>
  browse(t.app, browser, "POST", "/api/login", { payload: { email, password }, headers: { "x-locale": locale } });

describe("sign-in limits", () => {
  it("stops a guesser at their address without locking the account for its owner elsewhere", async () => {
    const { email } = await member();
    const attacker = newBrowser();
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.loginPair.max + 2; i++) {
      statuses.push((await login(attacker, email, `wrong-${i}-password`)).statusCode);
    }
    expect(statuses.slice(0, LIMITS.loginPair.max)).toEqual(Array(LIMITS.loginPair.max).fill(401));
    expect(statuses.slice(LIMITS.loginPair.max)).toEqual([429, 429]);
    // Even the right password from the guesser's address waits.
    expect((await login(attacker, email, PASSWORD)).statusCode).toBe(429);

    // The owner, from another address and a browser that never signed in: straight in.
    const owner = newBrowser();
    const right = await login(owner, email, PASSWORD);
    expect(right.statusCode, right.body).toBe(200);
    expect(owner.cookies.has("dossard_session")).toBe(true);
  });

  it("limits one address hammering many accounts", async () => {
    const hammer = newBrowser();
    let last = 0;
    for (let i = 0; i <= LIMITS.loginIp.max && last !== 429; i++) {
      last = (await login(hammer, `nobody.${i}@example.fr`, "wrong-password")).statusCode;
    }
    expect(last).toBe(429);
    const response = await login(hammer, `nobody.x@example.fr`, "wrong-password");
    expect(response.json().error).toMatchObject({
      code: "TOO_MANY_ATTEMPTS",
      message: "Trop de tentatives : patientez quelques minutes avant de réessayer.",
    });
  });

  it("pauses an account guessed at from many addresses for new devices only", async () => {
    const { email, browser: usual, id } = await member();
    expect(usual.cookies.has(DEVICE_COOKIE)).toBe(true);
    for (let i = 0; i < LIMITS.loginAccount.max; i++) {
      expect((await login(newBrowser(), email, `wrong-${i}-password`)).statusCode).toBe(401);
    }

    // A browser that never signed into the account is held back, with a message saying what to do.
    const stranger = newBrowser();
    const paused = await login(stranger, email, PASSWORD);
    expect(paused.statusCode).toBe(429);
    expect(paused.json().error.code).toBe("ACCOUNT_LOGIN_PAUSED");
    expect(paused.json().error.message).toMatch(/appareil que vous avez déjà utilisé/);
    expect((await login(newBrowser(), email, PASSWORD, "en")).json().error.message).toMatch(
      /sign in from a device you have used before/,
    );
    // A device cookie cannot be made up: unsigned or forged, it counts for nothing.
    const forger = newBrowser();
    forger.cookies.set(DEVICE_COOKIE, String(id));
    expect((await login(forger, email, PASSWORD)).statusCode).toBe(429);

    // The member's usual browser, even from a new address (a phone on another network), gets in.
    usual.ip = newBrowser().ip;
    const known = await login(usual, email, PASSWORD);
    expect(known.statusCode, known.body).toBe(200);
    // The wrong password from the usual browser is still a wrong password.
    expect((await login(usual, email, "wrong-password")).statusCode).toBe(401);

    // A day later anyone with the password gets in again.
    now = new Date(now.getTime() + LIMITS.loginAccount.windowSeconds * 1000 + 1000);
    expect((await login(stranger, email, PASSWORD)).statusCode).toBe(200);
  });
});
