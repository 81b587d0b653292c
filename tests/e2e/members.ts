import { expect, inject } from "vitest";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../../shared/constants.ts";
import { mailbox } from "./mailbox.ts";

/** What the journeys share: members made through the API, and axe's serious findings. */

export type JourneyMember = {
  email: string;
  password: string;
  /** `dossard_session=…`, for a Cookie header. */
  cookie: string;
  /** The session cookie's value alone, for a browser context's cookies. */
  session: string;
};

let counter = 0;

/**
 * A member registered and verified through the shared server's API (the account journeys cover
 * the forms), with the code read from the mail it sent.
 */
export async function verifiedMember(
  firstName: string,
  options: { lastName?: string; password?: string } = {},
): Promise<JourneyMember> {
  const baseURL = inject("baseURL");
  // "Léa" → "lea": the address stays plain ASCII.
  const local = firstName
    .normalize("NFD")
    .replace(/[^a-zA-Z]/g, "")
    .toLowerCase();
  const email = `${local}.${++counter}.${Date.now().toString(36)}@example.fr`;
  const password = options.password ?? "départ 2026 !";
  const headers = { [ACCESS_HEADER]: ACCESS_HEADER_VALUE, "content-type": "application/json" };
  const after = await mailbox.count();
  const registered = await fetch(`${baseURL}/api/register`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      email,
      password,
      passwordConfirmation: password,
      firstName,
      lastName: options.lastName ?? "Durand",
      pseudo: "",
      terms: true,
    }),
  });
  expect(registered.status, await registered.clone().text()).toBe(201);
  const cookie = (registered.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const mail = await mailbox.waitFor((m) => m.to.includes(email) && m.index >= after, 15_000);
  const code = mail.text.match(/\b(\d{5})\b/)?.[1];
  const verified = await fetch(`${baseURL}/api/user/verify-account`, {
    method: "POST",
    headers: { ...headers, cookie },
    body: JSON.stringify({ code }),
  });
  expect(verified.status).toBe(200);
  return { email, password, cookie, session: cookie.split("=").slice(1).join("=") };
}
