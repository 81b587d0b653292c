import { describe, expect, it } from "vitest";
import { LOCALES } from "../../shared/constants.ts";
import { escapeHtml, MAIL_TEMPLATES, type MailTemplateParams, renderMail } from "./templates.server.ts";

const context = { publicUrl: "https://dossard.example" };

const SAMPLE_PARAMS: MailTemplateParams = {
  verifyEmail: { firstName: "Léa", code: "40317" },
  changeEmail: { firstName: "Léa", code: "82946", newEmail: "lea.new@example.com" },
  resetPassword: { firstName: "Léa", link: "https://dossard.example/nouveau-mot-de-passe?token=abc" },
  passwordChanged: { firstName: "Léa" },
  accountDisabled: { firstName: "Léa" },
  welcome: { firstName: "Léa" },
};

describe("mail templates", () => {
  for (const template of MAIL_TEMPLATES) {
    for (const locale of LOCALES) {
      it(`renders ${template} in ${locale}`, () => {
        const mail = renderMail(template, locale, SAMPLE_PARAMS[template], context);
        expect(mail.subject.trim()).not.toBe("");
        expect(mail.subject).not.toMatch(/[{}]|\.subject/);
        expect(mail.html).toContain(`<html lang="${locale}">`);
        expect(mail.html).toContain("Dossard");
        expect(mail.html).toContain("Léa");
        // The footer: the site's address and why the recipient gets this.
        expect(mail.html).toContain("dossard.example");
        expect(mail.text).toContain("https://dossard.example");
        expect(mail.text).toMatch(locale === "fr" ? /Vous recevez ce message/ : /You're receiving this email/);
        // No raw key or interpolation left behind.
        for (const body of [mail.html, mail.text]) {
          expect(body).not.toMatch(/\{\{|\}\}/);
          expect(body).not.toMatch(new RegExp(`${template}\\.|layout\\.`));
        }
      });
    }
  }

  it("shows the code in both versions and says how long it lasts", () => {
    const fr = renderMail("verifyEmail", "fr", SAMPLE_PARAMS.verifyEmail, context);
    expect(fr.subject).toBe("Votre code de vérification Dossard");
    expect(fr.text).toContain("40317");
    expect(fr.html).toMatch(/letter-spacing:\d+px;[^>]*>40317</);
    expect(fr.text).toContain("15 minutes");
    const en = renderMail("verifyEmail", "en", SAMPLE_PARAMS.verifyEmail, context);
    expect(en.text).toContain("Hi Léa,");
    expect(en.text).toContain("5-digit code");
  });

  it("keeps secrets out of the subject, which is stored", () => {
    for (const template of MAIL_TEMPLATES) {
      for (const locale of LOCALES) {
        const { subject } = renderMail(template, locale, SAMPLE_PARAMS[template], context);
        expect(subject).not.toContain("40317");
        expect(subject).not.toContain("82946");
        expect(subject).not.toContain("token=");
      }
    }
  });

  it("names the new address when confirming a change of email", () => {
    const mail = renderMail("changeEmail", "en", SAMPLE_PARAMS.changeEmail, context);
    expect(mail.text).toContain("lea.new@example.com");
    expect(mail.text).toContain("82946");
  });

  it("gives the reset link as a button and as a raw address", () => {
    const { link } = SAMPLE_PARAMS.resetPassword;
    const mail = renderMail("resetPassword", "fr", SAMPLE_PARAMS.resetPassword, context);
    expect(mail.html.split(`href="${link}"`).length - 1).toBe(2);
    expect(mail.html).toContain(`>${link}</a>`);
    expect(mail.text).toContain(link);
    expect(mail.text).toContain("1 heure");
  });

  it("links the welcome and security mails to the site in the recipient's language", () => {
    expect(renderMail("welcome", "fr", SAMPLE_PARAMS.welcome, context).html).toContain(
      'href="https://dossard.example/"',
    );
    expect(renderMail("welcome", "en", SAMPLE_PARAMS.welcome, context).text).toContain("https://dossard.example/en");
    expect(renderMail("passwordChanged", "en", SAMPLE_PARAMS.passwordChanged, context).html).toContain(
      'href="https://dossard.example/en/page/contact"',
    );
  });

  it("escapes every parameter in the HTML and leaves the text version readable", () => {
    const firstName = `<script>alert("x")</script> & 'co'`;
    const mail = renderMail(
      "changeEmail",
      "fr",
      { firstName, code: "<b>1</b>", newEmail: `"><img src=x onerror=alert(1)>@x.fr` },
      context,
    );
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<img");
    expect(mail.html).not.toContain("<b>1</b>");
    expect(mail.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;");
    expect(mail.text).toContain(`Bonjour ${firstName},`);
  });

  it("greets without a name when there is none", () => {
    expect(renderMail("welcome", "fr", { firstName: "  " }, context).text).toMatch(/^Bonjour,\n/);
    expect(renderMail("welcome", "en", {}, context).text).toMatch(/^Hi,\n/);
  });

  it("falls back to French for an unknown language", () => {
    expect(renderMail("welcome", "de", SAMPLE_PARAMS.welcome, context).subject).toBe("Bienvenue sur Dossard !");
  });

  it("refuses unknown templates, missing parameters and links that are not web addresses", () => {
    expect(() => renderMail("nope", "fr", {}, context)).toThrow(/Unknown mail template/);
    expect(() => renderMail("verifyEmail", "fr", { firstName: "A" }, context)).toThrow(/"code"/);
    expect(() => renderMail("resetPassword", "fr", { firstName: "A", link: "javascript:alert(1)" }, context)).toThrow(
      /http/,
    );
  });

  it("escapes the five HTML-special characters", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});
