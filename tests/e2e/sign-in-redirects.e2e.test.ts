import { describe, expect, inject, it } from "vitest";
import { SAFE_NEXT, UNSAFE_NEXT } from "../../features/accounts/components/safe-next.cases.ts";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../../shared/constants.ts";

/**
 * The sign-in pages' redirects and the sign-out confirmation, over HTTP against the built server
 * (the page routes exist only with a build): what a browser is told in Location and Set-Cookie.
 */
const baseURL = inject("baseURL");
const PASSWORD = "correct horse 42";
let counter = 0;

function sessionCookie(response: Response): string | null {
  for (const line of response.headers.getSetCookie()) {
    const match = line.match(/^dossard_session=([^;]*)/);
    if (match) return match[1] ? `dossard_session=${match[1]}` : "";
  }
  return null;
}

/** A new member, signed in: their email and session cookie. */
async function member(): Promise<{ email: string; cookie: string }> {
  const email = `redirects.${++counter}.${Date.now().toString(36)}@example.fr`;
  const response = await fetch(`${baseURL}/api/register`, {
    method: "POST",
    headers: { "content-type": "application/json", [ACCESS_HEADER]: ACCESS_HEADER_VALUE },
    body: JSON.stringify({
      email,
      password: PASSWORD,
      passwordConfirmation: PASSWORD,
      firstName: "Léo",
      lastName: "Garnier",
      pseudo: "",
      terms: true,
    }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return { email, cookie: sessionCookie(response) ?? "" };
}

const signedIn = async (cookie: string) => (await fetch(`${baseURL}/api/me`, { headers: { cookie } })).status === 200;

/** A form posted by the page itself, as a browser sends it. */
function postForm(path: string, fields: Record<string, string>, cookie = "", site = "same-origin") {
  return fetch(`${baseURL}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: baseURL,
      "sec-fetch-site": site,
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
}

describe("the return path after signing in (pages)", () => {
  it("a signed-in member sent to /login?next=… goes only to a path of this site", async () => {
    const { cookie } = await member();
    const wrong: string[] = [];
    for (const [what, next] of UNSAFE_NEXT) {
      const response = await fetch(`${baseURL}/login?next=${encodeURIComponent(next)}`, {
        redirect: "manual",
        headers: { cookie },
      });
      const location = response.headers.get("location");
      if (location !== "/") wrong.push(`${what}: ${response.status} ${location}`);
    }
    expect(wrong).toEqual([]);
    for (const [next, expected] of SAFE_NEXT) {
      const response = await fetch(`${baseURL}/login?next=${encodeURIComponent(next)}`, {
        redirect: "manual",
        headers: { cookie },
      });
      expect(response.headers.get("location")).toBe(expected);
    }
  });

  it("signing in with the form goes home instead of to another host", async () => {
    const { email } = await member();
    for (const next of ["/.//evil.example", "/..//evil.example", "/%2e%2e//evil.example/x"]) {
      const response = await postForm(`/login?next=${encodeURIComponent(next)}`, { email, password: PASSWORD });
      expect([302, 303]).toContain(response.status);
      expect(response.headers.get("location")).toBe("/");
      expect(sessionCookie(response)).toMatch(/^dossard_session=./);
    }
    const good = await postForm(`/login?next=${encodeURIComponent("/user/profil")}`, { email, password: PASSWORD });
    expect(good.headers.get("location")).toBe("/user/profil");
  });

  it("registering with the form keeps only a safe return path for after the verification", async () => {
    const register = (next: string) =>
      postForm(`/inscription?next=${encodeURIComponent(next)}`, {
        email: `redirects.r${++counter}.${Date.now().toString(36)}@example.fr`,
        password: PASSWORD,
        passwordConfirmation: PASSWORD,
        firstName: "Léo",
        lastName: "Garnier",
        terms: "on",
        locale: "fr",
      });
    const bad = await register("/.//evil.example");
    expect(bad.headers.get("location")).toBe("/user/verification");
    const good = await register("/user/profil");
    expect(good.headers.get("location")).toBe(`/user/verification?next=${encodeURIComponent("/user/profil")}`);
  });
});

describe("signing out", () => {
  it("a link from another site only shows the Sign out? page, in the site's layout, whose button signs out", async () => {
    const { cookie } = await member();
    const fromElsewhere = await fetch(`${baseURL}/logout`, {
      redirect: "manual",
      headers: { cookie, "sec-fetch-site": "cross-site" },
    });
    expect(fromElsewhere.status).toBe(303);
    expect(fromElsewhere.headers.get("location")).toBe("/deconnexion");
    expect(await signedIn(cookie)).toBe(true);

    const page = await fetch(`${baseURL}/deconnexion`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Se déconnecter ?");
    expect(html).toContain('data-testid="sign-out-confirm"');
    expect(html).toContain('data-testid="logout-link"'); // the site's header
    expect(await signedIn(cookie)).toBe(true);

    // A form on another site posting there is refused; the page's own form signs out.
    const forged = await postForm("/deconnexion", {}, cookie, "cross-site");
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(await signedIn(cookie)).toBe(true);
    const confirmed = await postForm("/deconnexion", {}, cookie);
    expect([302, 303]).toContain(confirmed.status);
    expect(confirmed.headers.get("location")).toBe("/");
    expect(sessionCookie(confirmed)).toBe("");
    expect(await signedIn(cookie)).toBe(false);
  });

  it("the English page says it in English; the header's own link signs out at once", async () => {
    const { cookie } = await member();
    const page = await fetch(`${baseURL}/en/sign-out`, { headers: { cookie } });
    expect(await page.text()).toContain("Sign out?");
    const own = await fetch(`${baseURL}/logout?lang=en`, {
      redirect: "manual",
      headers: { cookie, "sec-fetch-site": "same-origin" },
    });
    expect(own.status).toBe(303);
    expect(own.headers.get("location")).toBe("/en");
    expect(await signedIn(cookie)).toBe(false);
  });
});
