import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_REFERENCE_DATE } from "../../tests/api/fixtures.ts";
import { accessHeaders, createTestApp, type TestApp, testMember } from "../../tests/api/harness.ts";
import { startTestSmtpServer, type TestSmtpServer } from "../../tests/support/smtp-server.ts";
import type { EmailLogsPage, EmailView } from "./mail-log.contract.ts";

/**
 * The admin's e-mail log against a real SMTP server: the viewer shows the HTML the recipient got,
 * its code masked; a message with a secret is never sent again, another one is, as a new message
 * the server receives. Admins only.
 */
let t: TestApp;
let smtp: TestSmtpServer;
let admin: { id: number; cookie: string };
let member: { id: number; cookie: string; email: string };

const asAdmin = () => ({ ...accessHeaders, cookie: admin.cookie });

async function list(query: string): Promise<EmailLogsPage> {
  const response = await t.app.inject({ method: "GET", url: `/api/admin/email-logs?${query}`, headers: asAdmin() });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers["cache-control"]).toBe("private, no-store");
  return response.json();
}

async function view(id: number): Promise<EmailView> {
  const response = await t.app.inject({ method: "GET", url: `/api/admin/email-logs/${id}`, headers: asAdmin() });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const resend = (id: number, headers: Record<string, string> = asAdmin()) =>
  t.app.inject({
    method: "POST",
    url: `/api/admin/email-logs/${id}/resend`,
    headers: { ...headers, "content-type": "application/json" },
    payload: "{}",
  });

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await createTestApp({ runJobs: true, env: { SMTP_URL: smtp.url } });
  admin = await testMember(t, { role: "admin" });
  // Registering mails a verification code.
  member = await testMember(t, { verified: false });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe("the e-mail log", () => {
  it("shows a message as its recipient got it, the code masked, and never sends it again", async () => {
    const received = await smtp.waitFor((mail) => mail.to.includes(member.email));
    const page = await list(`recipient=${encodeURIComponent(member.email.toUpperCase())}`);
    expect(page.total).toBe(1);
    const [message] = page.messages;
    expect(message).toMatchObject({ template: "verifyEmail", recipient: member.email, userId: member.id });
    expect(message?.tracking).toBe("none");

    const shown = await view(message?.id ?? 0);
    expect(shown.masked).toEqual(["code"]);
    expect(shown.resendable).toBe(false);
    expect(shown.renderError).toBeNull();
    const code = /^ {4}(\S+)$/m.exec(received.text)?.[1];
    expect(code).toBeTruthy();
    expect(shown.html).not.toContain(code);
    expect(shown.html).toContain("••••••");
    // The same HTML and text, but for the code.
    const unix = (text: string) => text.replace(/\r\n/g, "\n").trimEnd();
    expect(unix(shown.html)).toBe(unix(received.html.replaceAll(code as string, "••••••")));
    expect(unix(shown.text)).toBe(unix(received.text.replaceAll(code as string, "••••••")));
    expect(JSON.stringify(shown.params)).not.toContain(code);

    const refused = await resend(message?.id ?? 0);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe("MAIL_RESEND_SECRET");
    expect(refused.json().error.message).toMatch(/ne peut pas être renvoyé/);
    const english = await resend(message?.id ?? 0, { ...asAdmin(), "x-locale": "en" });
    expect(english.json().error.message).toMatch(/cannot be sent again/);
    expect((await list(`recipient=${encodeURIComponent(member.email)}`)).total).toBe(1);
  });

  it("sends again a message without a secret: a new message, through the mail server", async () => {
    const address = `nobody.${process.pid}@example.fr`;
    const recovery = await t.app.inject({
      method: "POST",
      url: "/api/recover-password",
      headers: { ...accessHeaders, "content-type": "application/json" },
      payload: JSON.stringify({ email: address }),
    });
    expect(recovery.statusCode).toBe(200);
    await smtp.waitFor((mail) => mail.to.includes(address));
    const [original] = (await list(`recipient=${address}`)).messages;
    expect(original?.template).toBe("resetNoAccount");
    expect((await view(original?.id ?? 0)).resendable).toBe(true);

    const again = await resend(original?.id ?? 0);
    expect(again.statusCode, again.body).toBe(200);
    const { id } = again.json() as { id: number };
    expect(id).toBeGreaterThan(original?.id ?? 0);
    await expect
      .poll(() => smtp.messages.filter((mail) => mail.to.includes(address)).length, { timeout: 15_000 })
      .toBe(2);
    const copies = smtp.messages.filter((mail) => mail.to.includes(address));
    expect(copies[1]?.subject).toBe(copies[0]?.subject);
    expect(copies[1]?.html).toBe(copies[0]?.html);
    await expect.poll(async () => (await list(`recipient=${address}&status=sent`)).total, { timeout: 15_000 }).toBe(2);
    const both = await list(`recipient=${address}`);
    expect(both.messages.map((m) => m.id)).toEqual([id, original?.id]);
  });

  it("filters by template, status and days, and pages", async () => {
    const verify = await list("template=verifyEmail");
    expect(verify.total).toBeGreaterThanOrEqual(2);
    expect(verify.messages.every((m) => m.template === "verifyEmail")).toBe(true);
    expect(verify.templates).toContain("resetNoAccount");
    expect((await list("template=resetNoAccount&status=failed")).total).toBe(0);
    // Messages are dated by the app's clock (TEST_REFERENCE_DATE), in French days.
    const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(TEST_REFERENCE_DATE);
    const next = new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const all = await list("");
    expect((await list(`from=${day}&to=${day}`)).total).toBe(all.total);
    expect((await list(`from=${next}`)).total).toBe(0);
    const beyond = await list("page=99");
    expect(beyond.messages).toEqual([]);
    expect(beyond.total).toBe(all.total);
    expect(all.pageSize).toBe(50);
    const bad = await t.app.inject({ method: "GET", url: "/api/admin/email-logs?status=lost", headers: asAdmin() });
    expect(bad.statusCode).toBe(400);
  });

  it("answers 404 for a message that does not exist", async () => {
    const missing = await t.app.inject({ method: "GET", url: "/api/admin/email-logs/999999", headers: asAdmin() });
    expect(missing.statusCode).toBe(404);
    expect((await resend(999_999)).statusCode).toBe(404);
  });

  it("is refused to a member (403) and to a visitor (401)", async () => {
    const before = await list("");
    const id = before.messages[0]?.id ?? 1;
    const memberHeaders = { ...accessHeaders, cookie: member.cookie };
    for (const [method, url] of [
      ["GET", "/api/admin/email-logs"],
      ["GET", `/api/admin/email-logs/${id}`],
      ["POST", `/api/admin/email-logs/${id}/resend`],
    ] as const) {
      const asMember = await t.app.inject({ method, url, headers: memberHeaders });
      expect(asMember.statusCode, `${method} ${url}`).toBe(403);
      const anonymous = await t.app.inject({ method, url, headers: accessHeaders });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
    }
    // Nothing was queued again.
    expect((await list("")).total).toBe(before.total);
  });
});
