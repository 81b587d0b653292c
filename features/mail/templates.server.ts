/**
 * Mail templates: each message type renders a subject, an HTML body and a plain-text body in the
 * recipient's language, inside one shared layout. Strings live in locales/<lang>/mail.json, read
 * here through a server-only i18next instance (the browser bundle never needs them).
 */
import i18next, { type TFunction } from "i18next";
import enMail from "../../locales/en/mail.json";
import frMail from "../../locales/fr/mail.json";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../../shared/constants.ts";
import { FRENCH_ELISION, frenchElisionProcessor } from "../../shared/i18n/french-elision.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { staticPagePath } from "../../shared/static-pages.ts";

/** Parameters of each template. */
export type MailTemplateParams = {
  verifyEmail: { firstName: string; code: string };
  changeEmail: { firstName: string; code: string; newEmail: string };
  resetPassword: { firstName: string; link: string };
  /** Recovery asked for an address without an (active) account: says so, and where to go. */
  resetNoAccount: Record<string, never>;
  /** Someone tried to register an address that already has an account. */
  registerExisting: { firstName: string };
  passwordChanged: { firstName: string };
  accountDisabled: { firstName: string };
  welcome: { firstName: string };
  /** "I am the organiser": the code that grants rights on the event. */
  organizerCode: { eventName: string; memberName: string; code: string };
  /** A visitor's message to an event's organiser; replies go to the visitor. */
  contactOrganizer: { eventName: string; senderName: string; senderEmail: string; message: string; eventUrl: string };
  /** A member invites a friend to an event. */
  invitation: { senderName: string; eventName: string; eventDate: string; eventUrl: string; message?: string };
  /** The Dossard team validated or deactivated a listing, or decided on a proposed change. */
  eventModerated: {
    firstName: string;
    eventName: string;
    decision: "validated" | "deactivated" | "accepted" | "rejected";
    eventUrl: string;
    message?: string;
  };
  /** The organiser (or an admin) decided on a member's claim of a results line ("c'est moi"). */
  resultClaimDecided: {
    firstName: string;
    eventName: string;
    courseName: string;
    decision: "approved" | "refused";
    resultsUrl: string;
  };
  /** A member listed a new event: it waits for moderation; the link opens their pending page. */
  eventSubmitted: { firstName: string; eventName: string; eventUrl: string };
  /** Alerts (features/alerts): the week's new races of a saved search. */
  searchDigest: {
    firstName: string;
    label: string;
    /** How many races are new (the list may show fewer). */
    count: number;
    races: DigestRace[];
    searchUrl: string;
    manageUrl: string;
    unsubscribeToken?: string;
  };
  /** Alerts: registration for a favourite event opens tomorrow or today. */
  registrationOpens: {
    firstName: string;
    eventName: string;
    when: "tomorrow" | "today";
    /** The opening, formatted in the member's language ("samedi 14 juin 2026 à 9 h 00"). */
    opensAt: string;
    eventUrl: string;
    unsubscribeToken?: string;
  };
  /** Alerts: a favourite event was cancelled or postponed. */
  eventChanged: {
    firstName: string;
    eventName: string;
    change: "cancelled" | "postponed";
    /** The new date when postponed, formatted. */
    newDate?: string;
    eventUrl: string;
    unsubscribeToken?: string;
  };
};
/** One race of a digest, its fields already formatted in the member's language. */
export type DigestRace = { name: string; date: string; place: string; distances: string; url: string };
export type MailTemplate = keyof MailTemplateParams;

/** Parameters that are secrets: given at send time, never stored with the message. */
export const SECRET_PARAMS = ["code", "link", "unsubscribeToken"] as const;
export type SecretParam = (typeof SECRET_PARAMS)[number];

export type RenderedMail = {
  subject: string;
  html: string;
  text: string;
  /** Where replies go, when not to us (a visitor writing to an organiser). */
  replyTo?: string;
  /** Extra headers: List-Unsubscribe and List-Unsubscribe-Post (RFC 8058) on alert mails. */
  headers?: Record<string, string>;
};
export type RenderContext = {
  /** The site's address, without a trailing slash (config PUBLIC_URL). */
  publicUrl: string;
};

/** The pieces a template body is made of; the layout turns them into HTML and text. */
type Block =
  | { kind: "paragraph"; text: string }
  /** Less prominent text: "ignore this if it wasn't you". */
  | { kind: "note"; text: string }
  /** A verification code, large and spaced out. */
  | { kind: "code"; code: string }
  /** A call to action; `showLink` also prints the address for clients that hide buttons. */
  | { kind: "button"; label: string; url: string; showLink?: boolean }
  /** Words someone typed (a visitor's message): set apart, line breaks kept. */
  | { kind: "quote"; text: string }
  /** A list of races (alert digests): name linking to the race, date, place, distances. */
  | { kind: "races"; races: DigestRace[] };

type Links = { home: string; contact: string; login: string; register: string; forgotPassword: string };

type TemplateDefinition<P> = {
  /** Parameters that must be non-empty strings (firstName may be empty: greeting without name). */
  required: (keyof P & string)[];
  body(t: TFunction, params: P, links: Links): Block[];
  /** i18next options of the subject, when it varies with more than the parameters (context). */
  subjectOptions?: (params: P) => Record<string, unknown>;
  /** The Reply-To address, for messages a person wrote (the layout then stops saying "don't reply"). */
  replyTo?: (params: P) => string;
  /** The secrets the message carries (given at send time, never stored): it cannot be sent again. */
  secrets?: SecretParam[];
};

const TEMPLATES: { [K in MailTemplate]: TemplateDefinition<MailTemplateParams[K]> } = {
  verifyEmail: {
    required: ["code"],
    secrets: ["code"],
    body: (t, { code }) => [
      { kind: "paragraph", text: t("verifyEmail.intro") },
      { kind: "code", code },
      { kind: "paragraph", text: t("verifyEmail.validity") },
      { kind: "note", text: t("verifyEmail.ignore") },
    ],
  },
  changeEmail: {
    required: ["code", "newEmail"],
    secrets: ["code"],
    body: (t, { code, newEmail }) => [
      { kind: "paragraph", text: t("changeEmail.intro", { newEmail }) },
      { kind: "code", code },
      { kind: "paragraph", text: t("changeEmail.validity") },
      { kind: "note", text: t("changeEmail.ignore") },
    ],
  },
  resetPassword: {
    required: ["link"],
    secrets: ["link"],
    body: (t, { link }) => [
      { kind: "paragraph", text: t("resetPassword.intro") },
      { kind: "button", label: t("resetPassword.button"), url: link, showLink: true },
      { kind: "paragraph", text: t("resetPassword.validity") },
      { kind: "note", text: t("resetPassword.ignore") },
    ],
  },
  resetNoAccount: {
    required: [],
    body: (t, _params, links) => [
      { kind: "paragraph", text: t("resetNoAccount.intro") },
      { kind: "paragraph", text: t("resetNoAccount.otherAddress") },
      { kind: "button", label: t("resetNoAccount.button"), url: links.register },
      { kind: "note", text: t("resetNoAccount.ignore") },
    ],
  },
  registerExisting: {
    required: [],
    body: (t, _params, links) => [
      { kind: "paragraph", text: t("registerExisting.intro") },
      { kind: "paragraph", text: t("registerExisting.signIn") },
      { kind: "button", label: t("registerExisting.button"), url: links.login },
      { kind: "paragraph", text: t("registerExisting.forgot", { link: links.forgotPassword }) },
      { kind: "note", text: t("registerExisting.ignore") },
    ],
  },
  passwordChanged: {
    required: [],
    body: (t, _params, links) => [
      { kind: "paragraph", text: t("passwordChanged.intro") },
      { kind: "paragraph", text: t("passwordChanged.ok") },
      { kind: "paragraph", text: t("passwordChanged.notYou") },
      { kind: "button", label: t("passwordChanged.button"), url: links.contact },
    ],
  },
  accountDisabled: {
    required: [],
    body: (t, _params, links) => [
      { kind: "paragraph", text: t("accountDisabled.intro") },
      { kind: "paragraph", text: t("accountDisabled.thanks") },
      { kind: "note", text: t("accountDisabled.notYou") },
      { kind: "button", label: t("accountDisabled.button"), url: links.contact },
    ],
  },
  welcome: {
    required: [],
    body: (t, _params, links) => [
      { kind: "paragraph", text: t("welcome.intro") },
      { kind: "paragraph", text: t("welcome.body") },
      { kind: "button", label: t("welcome.button"), url: links.home },
      { kind: "paragraph", text: t("welcome.closing") },
    ],
  },
  organizerCode: {
    required: ["eventName", "memberName", "code"],
    secrets: ["code"],
    body: (t, { eventName, memberName, code }) => [
      { kind: "paragraph", text: t("organizerCode.intro", { eventName, memberName }) },
      { kind: "code", code },
      { kind: "paragraph", text: t("organizerCode.validity") },
      { kind: "note", text: t("organizerCode.ignore") },
    ],
  },
  contactOrganizer: {
    required: ["eventName", "senderName", "senderEmail", "message", "eventUrl"],
    body: (t, { eventName, senderName, senderEmail, message, eventUrl }) => [
      { kind: "paragraph", text: t("contactOrganizer.intro", { eventName, senderName, senderEmail }) },
      { kind: "quote", text: message },
      { kind: "paragraph", text: t("contactOrganizer.reply", { senderName, senderEmail }) },
      { kind: "button", label: t("contactOrganizer.button"), url: eventUrl },
      { kind: "note", text: t("contactOrganizer.privacy", { senderName }) },
    ],
    replyTo: ({ senderEmail }) => senderEmail,
  },
  invitation: {
    required: ["senderName", "eventName", "eventDate", "eventUrl"],
    body: (t, { senderName, eventName, eventDate, eventUrl, message }) => [
      { kind: "paragraph", text: t("invitation.intro", { senderName, eventName, eventDate }) },
      ...(message?.trim()
        ? [
            { kind: "paragraph", text: t("invitation.messageIntro", { senderName }) } as const,
            { kind: "quote", text: message.trim() } as const,
          ]
        : []),
      { kind: "button", label: t("invitation.button"), url: eventUrl },
      { kind: "note", text: t("invitation.once") },
    ],
  },
  eventModerated: {
    required: ["eventName", "decision", "eventUrl"],
    body: (t, { eventName, decision, eventUrl, message }) => [
      { kind: "paragraph", text: t(`eventModerated.${decision}`, { eventName }) },
      ...(message?.trim()
        ? [
            { kind: "paragraph", text: t("eventModerated.messageIntro") } as const,
            { kind: "quote", text: message.trim() } as const,
          ]
        : []),
      { kind: "button", label: t("eventModerated.button"), url: eventUrl },
    ],
  },
  resultClaimDecided: {
    required: ["eventName", "courseName", "decision", "resultsUrl"],
    body: (t, { eventName, courseName, decision, resultsUrl }) => [
      { kind: "paragraph", text: t(`resultClaimDecided.${decision}`, { eventName, courseName }) },
      ...(decision === "refused" ? [{ kind: "paragraph", text: t("resultClaimDecided.refusedHelp") } as const] : []),
      { kind: "button", label: t("resultClaimDecided.button"), url: resultsUrl },
    ],
  },
  eventSubmitted: {
    required: ["eventName", "eventUrl"],
    body: (t, { eventName, eventUrl }) => [
      { kind: "paragraph", text: t("eventSubmitted.intro", { eventName }) },
      { kind: "paragraph", text: t("eventSubmitted.next") },
      { kind: "paragraph", text: t("eventSubmitted.preview") },
      { kind: "button", label: t("eventSubmitted.button"), url: eventUrl, showLink: true },
    ],
  },
  searchDigest: {
    required: ["label", "searchUrl", "manageUrl"],
    secrets: ["unsubscribeToken"],
    body: (t, { label, count, races, searchUrl, manageUrl }) => [
      { kind: "paragraph", text: t("searchDigest.intro", { label, count: Number(count) }) },
      { kind: "races", races: Array.isArray(races) ? races : [] },
      ...(Number(count) > (Array.isArray(races) ? races.length : 0)
        ? [{ kind: "paragraph", text: t("searchDigest.more", { count: Number(count) - races.length }) } as const]
        : []),
      { kind: "button", label: t("searchDigest.button"), url: searchUrl },
      { kind: "note", text: t("searchDigest.manage", { link: manageUrl }) },
    ],
  },
  registrationOpens: {
    required: ["eventName", "when", "opensAt", "eventUrl"],
    secrets: ["unsubscribeToken"],
    body: (t, { eventName, when, opensAt, eventUrl }) => [
      {
        kind: "paragraph",
        text: t(`registrationOpens.${when === "today" ? "today" : "tomorrow"}`, { eventName, opensAt }),
      },
      { kind: "paragraph", text: t("registrationOpens.hint") },
      { kind: "button", label: t("registrationOpens.button"), url: eventUrl },
    ],
  },
  eventChanged: {
    required: ["eventName", "change", "eventUrl"],
    secrets: ["unsubscribeToken"],
    body: (t, { eventName, change, newDate, eventUrl }) => [
      {
        kind: "paragraph",
        text:
          change === "postponed"
            ? t(newDate ? "eventChanged.postponed" : "eventChanged.postponedNoDate", { eventName, newDate })
            : t("eventChanged.cancelled", { eventName }),
      },
      { kind: "paragraph", text: t("eventChanged.hint") },
      { kind: "button", label: t("eventChanged.button"), url: eventUrl },
    ],
    subjectOptions: ({ change }) => ({ context: change === "postponed" ? "postponed" : "cancelled" }),
  },
};

export const MAIL_TEMPLATES = Object.keys(TEMPLATES) as MailTemplate[];

export function isMailTemplate(name: string): name is MailTemplate {
  return Object.hasOwn(TEMPLATES, name);
}

/** The secrets a template's messages carry (a code, a reset link, an unsubscribe link); none: []. */
export function templateSecrets(template: string): readonly SecretParam[] {
  return isMailTemplate(template) ? (TEMPLATES[template].secrets ?? []) : [];
}

// Values are interpolated raw and the whole text escaped once by the layout: escaping here too
// would show "&amp;" in the plain-text version.
const i18n = i18next.createInstance().use(frenchElisionProcessor);
i18n.init({
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  ns: ["mail"],
  defaultNS: "mail",
  resources: { fr: { mail: frMail }, en: { mail: enMail } },
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
  postProcess: [FRENCH_ELISION],
});

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);
}

function toLocale(value: string): Locale {
  return (LOCALES as readonly string[]).includes(value) ? (value as Locale) : DEFAULT_LOCALE;
}

/** Buttons point only at web pages: a `javascript:` link in a mail would be a trap. */
function assertWebUrl(url: string): void {
  if (!/^https?:\/\//i.test(url)) throw new Error(`Mail link must be an http(s) address, got "${url}"`);
}

/** One address, nothing that could end a header line. */
const SINGLE_ADDRESS = /^[^\s@<>,;"]+@[^\s@<>,;"]+$/;

function checkParams(template: MailTemplate, params: Record<string, unknown>): void {
  for (const name of TEMPLATES[template].required) {
    const value = params[name];
    if (typeof value !== "string" || value.trim() === "") {
      throw new Error(`Mail template "${template}" needs a non-empty "${name}" parameter`);
    }
  }
  if (params.firstName !== undefined && typeof params.firstName !== "string") {
    throw new Error(`Mail template "${template}": "firstName" must be a string`);
  }
}

// Brand colours of app/app.css: ink for text and header, brand-700 for actions (white text on it
// passes WCAG AA), brand-50/100 behind the code.
const INK = "#132238";
const MUTED = "#5b6b82";
const ACTION = "#b33a0c";
const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const MONO = "'SFMono-Regular', Menlo, Consolas, 'Liberation Mono', monospace";

function blockHtml(block: Block, t: TFunction): string {
  switch (block.kind) {
    case "paragraph":
      return `<p style="margin:0 0 16px;">${escapeHtml(block.text)}</p>`;
    case "note":
      return `<p style="margin:0 0 16px;font-size:14px;color:${MUTED};">${escapeHtml(block.text)}</p>`;
    case "quote":
      // pre-line keeps the writer's line breaks; the text stays escaped like everything else.
      return (
        `<blockquote style="margin:0 0 16px;padding:12px 16px;background:#f8fafc;border-left:4px solid #f05a1a;` +
        `border-radius:4px;white-space:pre-line;overflow-wrap:anywhere;">${escapeHtml(block.text)}</blockquote>`
      );
    case "code":
      // letter-spacing spaces the digits out on screen while copying still gives "12345".
      return (
        `<p style="margin:8px 0 24px;text-align:center;">` +
        `<span style="display:inline-block;padding:12px 12px 12px 22px;background:#fff4ed;border:1px solid #ffe6d4;` +
        `border-radius:8px;font-family:${MONO};font-size:34px;line-height:1.2;font-weight:700;letter-spacing:10px;` +
        `color:${ACTION};">${escapeHtml(block.code)}</span></p>`
      );
    case "races":
      return block.races
        .map((race) => {
          const url = escapeHtml(race.url);
          const details = [race.date, race.place].filter(Boolean).map(escapeHtml).join(" · ");
          return (
            `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 12px;">` +
            `<tr><td style="padding:12px 14px;border:1px solid #e2e8f0;border-left:4px solid #f05a1a;border-radius:8px;">` +
            `<a href="${url}" style="font-size:17px;font-weight:700;color:${INK};text-decoration:none;">${escapeHtml(race.name)}</a>` +
            `<div style="margin-top:4px;font-size:14px;color:${INK};">${details}</div>` +
            (race.distances
              ? `<div style="margin-top:2px;font-size:14px;color:${MUTED};">${escapeHtml(race.distances)}</div>`
              : "") +
            `</td></tr></table>`
          );
        })
        .join("\n");
    case "button": {
      const url = escapeHtml(block.url);
      const button =
        `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px;">` +
        `<tr><td style="border-radius:8px;background:${ACTION};">` +
        `<a href="${url}" style="display:inline-block;padding:13px 24px;font-size:16px;font-weight:700;` +
        `color:#ffffff;text-decoration:none;border-radius:8px;">${escapeHtml(block.label)}</a>` +
        `</td></tr></table>`;
      if (!block.showLink) return button;
      return (
        button +
        `<p style="margin:0 0 16px;font-size:14px;color:${MUTED};">${escapeHtml(t("layout.buttonFallback"))}<br>` +
        `<a href="${url}" style="color:${ACTION};word-break:break-all;">${url}</a></p>`
      );
    }
  }
}

function blockText(block: Block): string {
  switch (block.kind) {
    case "paragraph":
    case "note":
      return block.text;
    case "quote":
      return block.text
        .split(/\r?\n/)
        .map((line) => `> ${line}`.trimEnd())
        .join("\n");
    case "code":
      return `    ${block.code}`;
    case "button":
      // No button in plain text: its label, then the address to copy.
      return `${block.label}\n${block.url}`;
    case "races":
      return block.races
        .map((race) =>
          [`* ${race.name}`, `  ${[race.date, race.place].filter(Boolean).join(" · ")}`]
            .concat(race.distances ? [`  ${race.distances}`] : [], [`  ${race.url}`])
            .join("\n"),
        )
        .join("\n\n");
  }
}

/**
 * Renders one message. `params` is checked at run time: it comes back from the database as JSON.
 * Throws on an unknown template, a missing parameter or a link that is not a web address.
 */
export function renderMail(
  template: MailTemplate | (string & {}),
  locale: string,
  params: Record<string, unknown>,
  context: RenderContext,
): RenderedMail {
  if (!isMailTemplate(template)) throw new Error(`Unknown mail template "${template}"`);
  checkParams(template, params);
  const lang = toLocale(locale);
  const t = i18n.getFixedT(lang, "mail");
  const publicUrl = context.publicUrl.replace(/\/+$/, "");
  const links: Links = {
    home: `${publicUrl}${pagePath("home", lang)}`,
    contact: `${publicUrl}${staticPagePath("contact", lang)}`,
    login: `${publicUrl}${pagePath("login", lang)}`,
    register: `${publicUrl}${pagePath("register", lang)}`,
    forgotPassword: `${publicUrl}${pagePath("forgotPassword", lang)}`,
  };
  const definition = TEMPLATES[template] as TemplateDefinition<Record<string, string>>;
  const blocks = definition.body(t, params as Record<string, string>, links);
  for (const block of blocks) {
    if (block.kind === "button") assertWebUrl(block.url);
    if (block.kind === "races") for (const race of block.races) assertWebUrl(race.url);
  }
  // Alert mails: a visible unsubscribe link, and the one-click headers of RFC 8058.
  const token = typeof params.unsubscribeToken === "string" ? params.unsubscribeToken : "";
  // One address for both: the page shows a button, and answers mail clients' one-click POST.
  const unsubscribe = token
    ? { page: `${publicUrl}${pagePath("unsubscribe", lang)}?token=${encodeURIComponent(token)}` }
    : null;
  const replyTo = definition.replyTo?.(params as Record<string, string>).trim();
  if (replyTo !== undefined && !SINGLE_ADDRESS.test(replyTo)) {
    throw new Error(`Mail template "${template}": invalid reply-to address "${replyTo}"`);
  }
  // Subjects, previews and footers never show a secret: only the stored parameters reach them.
  const visible = Object.fromEntries(
    Object.entries(params).filter(([name]) => !(SECRET_PARAMS as readonly string[]).includes(name)),
  );

  const firstName = typeof params.firstName === "string" ? params.firstName.trim() : "";
  const greeting = firstName ? t("layout.greeting", { firstName }) : t("layout.greetingNoName");
  // A subject is one header line, whatever a sender typed in their name.
  const subjectOptions = definition.subjectOptions?.(params as Record<string, string>) ?? {};
  const subject = t(`${template}.subject`, { ...visible, ...subjectOptions })
    .replace(/\s+/g, " ")
    .trim();
  const preheader = t(`${template}.preheader`, visible);
  const reason = t(`${template}.reason`, visible);
  // A message a person wrote may be answered: the footer says where the reply goes.
  const footer = replyTo ? t(`${template}.footer`, visible) : t("layout.automatic");
  const siteName = new URL(publicUrl).host;

  const html = `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f3f4f6;">
<div style="display:none;max-height:0;overflow:hidden;opacity:0;">${escapeHtml(preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f3f4f6;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background:#ffffff;border-radius:12px;font-family:${FONT};color:${INK};">
<tr><td style="background:${INK};border-radius:12px 12px 0 0;border-bottom:4px solid #f05a1a;padding:20px 28px;">
<a href="${escapeHtml(links.home)}" style="font-size:26px;font-weight:800;color:#ffffff;text-decoration:none;">Dossard</a>
<div style="margin-top:2px;font-size:13px;color:#ffe6d4;">${escapeHtml(t("layout.tagline"))}</div>
</td></tr>
<tr><td style="padding:28px 28px 12px;font-size:16px;line-height:1.55;">
<p style="margin:0 0 16px;">${escapeHtml(greeting)}</p>
${blocks.map((block) => blockHtml(block, t)).join("\n")}
<p style="margin:8px 0 16px;">${escapeHtml(t("layout.signOff"))}<br>${escapeHtml(t("layout.team"))}</p>
</td></tr>
</table>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;">
<tr><td style="padding:16px 28px;font-family:${FONT};font-size:12px;line-height:1.5;color:${MUTED};text-align:center;">
${escapeHtml(reason)}<br>${escapeHtml(footer)}<br>
${unsubscribe ? `<a href="${escapeHtml(unsubscribe.page)}" style="color:${MUTED};">${escapeHtml(t("layout.unsubscribe"))}</a> · ` : ""}<a href="${escapeHtml(links.home)}" style="color:${MUTED};">${escapeHtml(siteName)}</a>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;

  const text = [
    greeting,
    ...blocks.map(blockText),
    `${t("layout.signOff")}\n${t("layout.team")}`,
    `-- \n${reason}\n${footer}\n${unsubscribe ? `${t("layout.unsubscribeText", { link: unsubscribe.page })}\n` : ""}Dossard · ${links.home}`,
  ].join("\n\n");

  return {
    subject,
    html,
    text: `${text}\n`,
    ...(replyTo ? { replyTo } : {}),
    ...(unsubscribe
      ? {
          headers: {
            "List-Unsubscribe": `<${unsubscribe.page}>`,
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          },
        }
      : {}),
  };
}

/** What stands in a message's preview for a secret that was never stored. */
const MASKED: Record<SecretParam, (publicUrl: string) => string> = {
  code: () => "••••••",
  link: (publicUrl) => `${publicUrl}/••••••`,
  unsubscribeToken: () => "••••••",
};

/**
 * A sent message rendered again from its template and stored parameters (the admin's viewer):
 * the same HTML and text the recipient got, except its secrets — codes, links and unsubscribe
 * tokens are never kept — which show as "••••••" and are named in `masked`.
 */
export function renderMailPreview(
  template: string,
  locale: string,
  params: Record<string, unknown>,
  context: RenderContext,
): RenderedMail & { masked: SecretParam[] } {
  const masked = [...templateSecrets(template)];
  const publicUrl = context.publicUrl.replace(/\/+$/, "");
  const stand = Object.fromEntries(masked.map((name) => [name, MASKED[name](publicUrl)]));
  return { ...renderMail(template, locale, { ...params, ...stand }, context), masked };
}
