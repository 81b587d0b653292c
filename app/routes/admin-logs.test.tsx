import { render, screen, within } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { appLogsQuerySchema, eventLogsQuerySchema } from "../../features/logs/logs.contract.ts";
import { type EmailView, emailLogsQuerySchema } from "../../features/mail/mail-log.contract.ts";
import AdminLogsPage from "./admin-logs.tsx";

/** The page as its loader left it, at an address of the admin area. */
function renderPage(loaderData: unknown, url: string, actionData?: unknown) {
  const props = { loaderData, actionData } as unknown as Parameters<typeof AdminLogsPage>[0];
  const element = <AdminLogsPage {...props} />;
  const router = createMemoryRouter([{ path: "/admin/journaux", element }], { initialEntries: [url] });
  return render(<RouterProvider router={router} />);
}

const appRecord = {
  time: "2026-03-14T08:30:12.000Z",
  level: "info" as const,
  message: "request",
  requestId: "0a1b2c3d4e5f6a7b",
  userId: 42,
  request: { method: "GET", route: "/api/event/:id", path: "/api/event/12", status: 200, ms: 12.5 },
  error: null,
  details: {},
};

describe("the logs page", () => {
  it("shows the application log with its tabs, French dates and links that filter by request and member", () => {
    renderPage(
      {
        tab: "app",
        query: appLogsQuerySchema.parse({ level: "info" }),
        page: {
          records: [
            appRecord,
            {
              ...appRecord,
              time: "2026-03-14T08:30:11.000Z",
              level: "error",
              message: "a job failed",
              request: null,
              userId: null,
              requestId: null,
              error: { type: "Error", message: "boom", stack: "Error: boom\n    at job (jobs.ts:1:1)" },
              details: { queue: "mail.send" },
            },
          ],
          page: 1,
          pageSize: 50,
          hasMore: true,
          kept: { files: 2, bytes: 3_500_000 },
        },
      },
      "/admin/journaux?level=info",
    );
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Journaux");
    const tabs = screen.getByRole("navigation", { name: "Journaux" });
    expect(within(tabs).getByRole("link", { name: "Application" }).getAttribute("aria-current")).toBe("page");
    expect(within(tabs).getByRole("link", { name: "E-mails" }).getAttribute("href")).toBe("/admin/journaux?tab=emails");
    expect(screen.getByText(/2 fichiers, 3,5\s?Mo/)).toBeTruthy();
    const table = screen.getByRole("table");
    // 08:30 UTC is 09:30 in Paris in March.
    expect(within(table).getByText("14/03/2026 09:30:12")).toBeTruthy();
    expect(within(table).getByText(/GET \/api\/event\/12/)).toBeTruthy();
    expect(
      within(table)
        .getByRole("link", { name: "Toutes les lignes de la requête 0a1b2c3d4e5f6a7b" })
        .getAttribute("href"),
    ).toBe("/admin/journaux?level=info&requestId=0a1b2c3d4e5f6a7b");
    expect(within(table).getByRole("link", { name: "Toutes les lignes du membre n° 42" }).getAttribute("href")).toBe(
      "/admin/journaux?level=info&userId=42",
    );
    expect(within(table).getByText(/Error\s: boom/)).toBeTruthy();
    // Not counted through: the page number alone, and a next page.
    expect(screen.getByText("Page 1")).toBeTruthy();
    expect(screen.getByRole("link", { name: /Page suivante/ }).getAttribute("href")).toBe(
      "/admin/journaux?level=info&page=2",
    );
    expect((screen.getByLabelText("Niveau minimum") as HTMLSelectElement).value).toBe("info");
  });

  it("shows the events' history: who, when, the event's link and what changed in the editor's words", () => {
    renderPage(
      {
        tab: "events",
        query: eventLogsQuerySchema.parse({}),
        page: {
          entries: [
            {
              id: 7,
              at: "2026-02-10T10:00:00.000Z",
              type: "postponement",
              event: { id: 3, name: "Trail des Journaux", slug: "trail-des-journaux-2026", startDate: "2026-06-01" },
              member: { id: 5, name: "Adeline Martin" },
              data: { from: "2026-05-01", to: "2026-06-01" },
            },
            {
              id: 6,
              at: "2026-01-10T10:00:00.000Z",
              type: "modification",
              event: { id: 3, name: "Trail des Journaux", slug: "trail-des-journaux-2026", startDate: "2026-06-01" },
              member: null,
              data: { fields: ["name", "startDate"], access: "organizer" },
            },
          ],
          total: 2,
          page: 1,
          pageSize: 50,
        },
      },
      "/admin/journaux?tab=events",
    );
    const table = screen.getByRole("table");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows[0]?.textContent).toContain("10/02/2026 11:00:00");
    expect(rows[0]?.textContent).toContain("Adeline Martin");
    expect(rows[0]?.textContent).toContain("Report");
    expect(rows[0]?.textContent).toContain("Date déplacée du 01/05/26 au 01/06/26");
    expect(
      within(rows[0] as HTMLElement)
        .getByRole("link", { name: "Trail des Journaux" })
        .getAttribute("href"),
    ).toBe("/course/trail-des-journaux-2026");
    expect(rows[1]?.textContent).toContain("Système");
    expect(rows[1]?.textContent).toMatch(/Champs modifiés : Nom de l.événement, Premier jour/);
    expect(rows[1]?.textContent).toContain("En tant qu'organisateur");
    // The filter form keeps the tab; "show all" stays on it.
    expect((document.querySelector('input[type="hidden"][name="tab"]') as HTMLInputElement).value).toBe("events");
    expect(screen.getByRole("link", { name: "Tout afficher" }).getAttribute("href")).toBe("/admin/journaux?tab=events");
  });

  it("shows an e-mail in a sandboxed frame, says what was masked and that opens are not tracked", () => {
    const message = {
      id: 9,
      createdAt: "2026-03-14T08:00:00.000Z",
      sentAt: "2026-03-14T08:00:05.000Z",
      recipient: "ana@example.fr",
      userId: 4,
      template: "verifyEmail",
      locale: "fr",
      subject: "Votre code Dossard",
      status: "sent" as const,
      attempts: 1,
      error: null,
      tracking: "none" as const,
    };
    const view: EmailView = {
      message,
      html: "<!DOCTYPE html><p>Votre code : ••••••</p>",
      text: "Votre code :\n    ••••••\n",
      masked: ["code"],
      resendable: false,
      params: { firstName: "Ana" },
      renderError: null,
    };
    renderPage(
      {
        tab: "emails",
        query: emailLogsQuerySchema.parse({}),
        page: { messages: [message], total: 1, page: 1, pageSize: 50, templates: ["verifyEmail", "welcome"] },
        view,
      },
      "/admin/journaux?tab=emails&view=9",
    );
    const viewer = screen.getByTestId("email-viewer");
    const frame = within(viewer).getByTitle("Aperçu du message n° 9") as HTMLIFrameElement;
    expect(frame.getAttribute("sandbox")).toBe("");
    expect(frame.getAttribute("srcdoc")).toBe(view.html);
    expect(viewer.textContent).toContain("Non suivis");
    expect(viewer.textContent).toContain("Remplacés par « •••••• », car jamais enregistrés : le code.");
    expect(viewer.textContent).toContain("Ce message contenait le code, qui n'est pas conservé");
    expect(within(viewer).queryByRole("button", { name: "Renvoyer ce message" })).toBeNull();
    expect(within(viewer).getByText(/Votre code :/, { selector: "pre" })).toBeTruthy();
    expect(within(viewer).getByRole("link", { name: "Fermer" }).getAttribute("href")).toBe(
      "/admin/journaux?tab=emails",
    );
    expect(screen.getByText(/Ouvertures et clics : non suivis/)).toBeTruthy();
    const table = screen.getByRole("table");
    expect(within(table).getByText("Vérification de l'adresse")).toBeTruthy();
    expect(within(table).getByText("Envoyé")).toBeTruthy();
  });

  it("offers the resend of a message without a secret, and says when it was sent again", () => {
    const message = {
      id: 10,
      createdAt: "2026-03-14T08:00:00.000Z",
      sentAt: null,
      recipient: "ana@example.fr",
      userId: null,
      template: "welcome",
      locale: "fr",
      subject: "Bienvenue",
      status: "failed" as const,
      attempts: 5,
      error: "451 busy",
      tracking: "none" as const,
    };
    renderPage(
      {
        tab: "emails",
        query: emailLogsQuerySchema.parse({}),
        page: { messages: [message], total: 1, page: 1, pageSize: 50, templates: ["welcome"] },
        view: {
          message,
          html: "<p>Bienvenue</p>",
          text: "Bienvenue",
          masked: [],
          resendable: true,
          params: {},
          renderError: null,
        },
      },
      "/admin/journaux?tab=emails&view=10",
      { resent: 11 },
    );
    const viewer = screen.getByTestId("email-viewer");
    expect(within(viewer).getByRole("button", { name: "Renvoyer ce message" })).toBeTruthy();
    expect(within(viewer).getByRole("status").textContent).toBe(
      "Message renvoyé : c'est le message n° 11, en file d'envoi.",
    );
    expect(viewer.textContent).toContain("Pas encore envoyé");
    expect(viewer.textContent).toContain("451 busy");
  });
});
