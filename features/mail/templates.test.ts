import { describe, expect, it } from "vitest";
import { LOCALES } from "../../shared/constants.ts";
import { escapeHtml, MAIL_TEMPLATES, type MailTemplateParams, renderMail } from "./templates.server.ts";

const context = { publicUrl: "https://dossard.example" };

const SAMPLE_PARAMS: MailTemplateParams = {
  verifyEmail: { firstName: "Léa", code: "40317" },
  changeEmail: { firstName: "Léa", code: "82946", newEmail: "lea.new@example.com" },
  resetPassword: { firstName: "Léa", link: "https://dossard.example/nouveau-mot-de-passe?token=abc" },
  resetNoAccount: {},
  registerExisting: { firstName: "Léa" },
  passwordChanged: { firstName: "Léa" },
  accountDisabled: { firstName: "Léa" },
  welcome: { firstName: "Léa" },
  organizerCode: { eventName: "Trail des Crêtes", memberName: "Léa Martin", code: "40317" },
  contactOrganizer: {
    eventName: "Trail des Crêtes",
    senderName: "Léa Martin",
    senderEmail: "lea.martin@example.com",
    message: "Bonjour,\nY a-t-il des navettes depuis la gare ?\nMerci !",
    eventUrl: "https://dossard.example/course/trail-des-cretes-2026",
  },
  invitation: {
    senderName: "Léa Martin",
    eventName: "Trail des Crêtes",
    eventDate: "dimanche 14 juin 2026",
    eventUrl: "https://dossard.example/course/trail-des-cretes-2026",
    message: "On la court ensemble ?",
  },
  eventModerated: {
    firstName: "Léa",
    eventName: "Trail des Crêtes",
    decision: "validated",
    eventUrl: "https://dossard.example/course/trail-des-cretes-2026",
    message: "Merci pour cette belle fiche.",
  },
  resultClaimDecided: {
    firstName: "Léa",
    eventName: "Trail des Crêtes",
    courseName: "Le 42 km",
    decision: "refused",
    resultsUrl: "https://dossard.example/user/resultats",
  },
  eventSubmitted: {
    firstName: "Léa",
    eventName: "Trail des Crêtes",
    eventUrl: "https://dossard.example/course/trail-des-cretes-2026",
  },
  searchDigest: {
    firstName: "Léa",
    label: "Trail · Haute-Savoie",
    count: 12,
    races: [
      {
        name: "Trail des Crêtes",
        date: "samedi 14 juin 2026",
        place: "Annecy (Haute-Savoie)",
        distances: "12 km, 42 km",
        url: "https://dossard.example/course/trail-des-cretes-2026",
      },
    ],
    searchUrl: "https://dossard.example/?sport=trail&department=74",
    manageUrl: "https://dossard.example/user/alertes",
    unsubscribeToken: "7.search_digest.3.c2lnbmF0dXJl",
  },
  registrationOpens: {
    firstName: "Léa",
    eventName: "Trail des Crêtes",
    when: "tomorrow",
    opensAt: "samedi 14 juin 2026 à 9 h 00",
    eventUrl: "https://dossard.example/course/trail-des-cretes-2026",
    unsubscribeToken: "7.registration_opens.c2lnbmF0dXJl",
  },
  eventChanged: {
    firstName: "Léa",
    eventName: "Trail des Crêtes",
    change: "postponed",
    newDate: "dimanche 20 septembre 2026",
    eventUrl: "https://dossard.example/course/trail-des-cretes-2026",
    unsubscribeToken: "7.event_changed.c2lnbmF0dXJl",
  },
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
        // A recovery mail for an address without an account has nobody's name to greet.
        if (template !== "resetNoAccount") expect(mail.html).toContain("Léa");
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

  it("mails the organiser code with the event's name, and keeps the code out of the subject", () => {
    for (const locale of LOCALES) {
      const mail = renderMail("organizerCode", locale, SAMPLE_PARAMS.organizerCode, context);
      expect(mail.subject).toBe(
        locale === "fr" ? "Votre code organisateur pour Trail des Crêtes" : "Your organiser code for Trail des Crêtes",
      );
      expect(mail.text).toContain("40317");
      expect(mail.html).toMatch(/letter-spacing:\d+px;[^>]*>40317</);
      expect(mail.text).toContain("15 minutes");
      expect(mail.text).toContain("Léa Martin");
      expect(mail.text).toMatch(locale === "fr" ? /^Bonjour,\n/ : /^Hi,\n/);
      expect(mail.replyTo).toBeUndefined();
    }
    expect(() => renderMail("organizerCode", "fr", { eventName: "X", memberName: "Y" }, context)).toThrow(/"code"/);
  });

  it("passes a visitor's message to the organiser with replies going to the visitor", () => {
    for (const locale of LOCALES) {
      const mail = renderMail("contactOrganizer", locale, SAMPLE_PARAMS.contactOrganizer, context);
      expect(mail.replyTo).toBe("lea.martin@example.com");
      expect(mail.subject).toContain("Trail des Crêtes");
      // The message keeps its lines: quoted in the text, pre-line in the HTML.
      expect(mail.text).toContain("> Bonjour,\n> Y a-t-il des navettes depuis la gare ?\n> Merci !");
      expect(mail.html).toMatch(/<blockquote[^>]*white-space:pre-line[^>]*>Bonjour,\nY a-t-il/);
      expect(mail.html).toContain('href="https://dossard.example/course/trail-des-cretes-2026"');
      // The footer no longer says "don't reply".
      expect(mail.text).not.toMatch(/ne pas y répondre|don't reply/);
      expect(mail.text).toMatch(
        locale === "fr" ? /votre réponse ira directement à Léa Martin/ : /straight to Léa Martin/,
      );
    }
  });

  it("escapes what a visitor typed and refuses a reply-to that is not one address", () => {
    const mail = renderMail(
      "contactOrganizer",
      "fr",
      {
        ...SAMPLE_PARAMS.contactOrganizer,
        senderName: "<b>Léa</b>",
        message: `</blockquote><script>alert(1)</script>`,
      },
      context,
    );
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<b>Léa</b>");
    expect(mail.html).toContain("&lt;/blockquote&gt;&lt;script&gt;");
    expect(mail.text).toContain("> </blockquote><script>alert(1)</script>");
    for (const senderEmail of ["a@b.fr\r\nBcc: x@y.fr", "a@b.fr, c@d.fr", "nobody"]) {
      expect(() =>
        renderMail("contactOrganizer", "fr", { ...SAMPLE_PARAMS.contactOrganizer, senderEmail }, context),
      ).toThrow(/reply-to/);
    }
    expect(() =>
      renderMail("contactOrganizer", "fr", { ...SAMPLE_PARAMS.contactOrganizer, eventUrl: "javascript:x" }, context),
    ).toThrow(/http/);
  });

  it("keeps a sender's name on one subject line", () => {
    const mail = renderMail(
      "invitation",
      "en",
      { ...SAMPLE_PARAMS.invitation, senderName: "Léa\r\nBcc: x@y.fr" },
      context,
    );
    expect(mail.subject).toBe("Léa Bcc: x@y.fr invites you to Trail des Crêtes");
  });

  it("invites a friend with the date, the optional message and a link to the race", () => {
    const fr = renderMail("invitation", "fr", SAMPLE_PARAMS.invitation, context);
    expect(fr.subject).toBe("Léa Martin vous invite à Trail des Crêtes");
    expect(fr.text).toContain("le dimanche 14 juin 2026");
    expect(fr.text).toContain("Son message :\n\n> On la court ensemble ?");
    expect(fr.html).toContain('href="https://dossard.example/course/trail-des-cretes-2026"');
    expect(fr.replyTo).toBeUndefined();
    const { message: _message, ...withoutMessage } = SAMPLE_PARAMS.invitation;
    const en = renderMail("invitation", "en", withoutMessage, context);
    expect(en.text).not.toContain("Their message");
    expect(en.html).not.toContain("<blockquote");
    expect(en.text).toContain("See the race\nhttps://dossard.example/course/trail-des-cretes-2026");
  });

  it("escapes the five HTML-special characters", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });

  it("alert mails carry a visible unsubscribe link and the one-click headers (RFC 8058)", () => {
    for (const locale of ["fr", "en"] as const) {
      const mail = renderMail("searchDigest", locale, SAMPLE_PARAMS.searchDigest, context);
      const page = locale === "fr" ? "/alertes/desabonnement" : "/en/alerts/unsubscribe";
      const url = `${context.publicUrl}${page}?token=7.search_digest.3.c2lnbmF0dXJl`;
      expect(mail.headers).toEqual({
        "List-Unsubscribe": `<${url}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      });
      expect(mail.html).toContain(`href="${url}"`);
      expect(mail.text).toContain(url);
      // The token is a secret: never in the subject.
      expect(mail.subject).not.toContain("c2lnbmF0dXJl");
    }
    expect(renderMail("welcome", "fr", SAMPLE_PARAMS.welcome, context).headers).toBeUndefined();
  });

  it("a digest lists each race with its date, place, distances and link, and says how many more", () => {
    const fr = renderMail("searchDigest", "fr", SAMPLE_PARAMS.searchDigest, context);
    expect(fr.subject).toBe("12 nouvelles courses pour votre alerte « Trail · Haute-Savoie »");
    expect(fr.text).toContain("* Trail des Crêtes\n  samedi 14 juin 2026 · Annecy (Haute-Savoie)\n  12 km, 42 km");
    expect(fr.text).toContain("Et 11 autres courses");
    expect(fr.html).toContain('href="https://dossard.example/course/trail-des-cretes-2026"');
    const en = renderMail("eventChanged", "en", SAMPLE_PARAMS.eventChanged, context);
    expect(en.subject).toBe("Trail des Crêtes is postponed");
    expect(en.text).toContain("postponed Trail des Crêtes to dimanche 20 septembre 2026");
    const cancelled = renderMail("eventChanged", "fr", { ...SAMPLE_PARAMS.eventChanged, change: "cancelled" }, context);
    expect(cancelled.subject).toBe("Trail des Crêtes est annulée");
  });
});
