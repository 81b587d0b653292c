import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { I18nextProvider } from "react-i18next";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../../shared/i18n/index.ts";
import { AdminLayout } from "../../admin/components/AdminLayout.tsx";
import { AccountLayout } from "./AccountLayout.tsx";

/** The account's (or with `admin`, the admin area's) frame at `path`, for a member of `role`. */
function renderAt(path: string, role: "member" | "admin", area: "account" | "admin" = "account") {
  const locale = path.startsWith("/en/") ? "en" : "fr";
  const Layout = area === "admin" ? AdminLayout : AccountLayout;
  const page = (
    <Layout locale={locale} title="Titre">
      <p>page</p>
    </Layout>
  );
  const router = createMemoryRouter(
    [
      {
        id: "root",
        path: "/",
        loader: () => ({ user: { id: 1, role } }),
        element: <Outlet />,
        HydrateFallback: () => null,
        children: [{ path: "*", element: page }],
      },
    ],
    { initialEntries: [path] },
  );
  return render(
    <I18nextProvider i18n={createI18n(locale)}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
}

/** The links of the wide screens' side menu (the phones' menu lists the same ones). */
async function sideMenu(name: string) {
  const nav = await screen.findByRole("navigation", { name });
  return nav.querySelector(":scope > div") as HTMLElement;
}

const linksOf = (container: HTMLElement) =>
  within(container)
    .getAllByRole("link")
    .map((link) => [link.textContent, link.getAttribute("href")]);

describe("the account's menu", () => {
  it("lists every page of the account in three groups, the current one marked", async () => {
    renderAt("/user/planning", "member");
    const side = await sideMenu("Mon compte");
    expect([...side.querySelectorAll("p")].map((p) => p.textContent)).toEqual([
      "Mon activité",
      "Mes créations",
      "Compte",
    ]);
    expect(linksOf(side)).toEqual([
      ["Planning", "/user/planning"],
      ["Favoris", "/user/favoris"],
      ["Résultats", "/user/resultats"],
      ["Activités", "/user/activities"],
      ["Alertes", "/user/alertes"],
      ["Mes événements", "/user/evenements"],
      ["Mes posters", "/user/posters"],
      ["Commandes", "/user/commandes"],
      ["Profil", "/user/profil"],
      ["Paramètres", "/user/parametres"],
    ]);
    expect(within(side).getByRole("link", { name: "Planning" })).toHaveAttribute("aria-current", "page");
    expect(side.querySelectorAll("[aria-current]")).toHaveLength(1);
    // Each group is a list named by its label.
    expect(within(side).getByRole("list", { name: "Mes créations" })).toBeInTheDocument();
  });

  it("on phones, a disclosure names the current page and opens to list them all", async () => {
    const user = userEvent.setup();
    renderAt("/en/user/activities/strava", "member");
    const nav = await screen.findByRole("navigation", { name: "My account" });
    const details = nav.querySelector("details") as HTMLDetailsElement;
    const summary = details.querySelector("summary") as HTMLElement;
    expect(summary).toHaveTextContent("My accountActivities");
    expect(details.open).toBe(false);
    // (Chromium opens it with Enter and Space too: tests/e2e/account.e2e.test.ts.)
    await user.click(summary);
    expect(details.open).toBe(true);
    expect(within(details).getByRole("link", { name: "Activities" })).toHaveAttribute("aria-current", "page");
    expect(within(details).getAllByRole("link")).toHaveLength(10);
  });

  it("gives admins the way to the admin area", async () => {
    renderAt("/user/profil", "admin");
    const side = await sideMenu("Mon compte");
    expect(within(side).getByRole("list", { name: "Administration" })).toBeInTheDocument();
    expect(within(side).getByRole("link", { name: "Espace d'administration" })).toHaveAttribute("href", "/admin");
  });
});

describe("the admin area's menu", () => {
  it("lists the admin pages, the current one marked, with the way back to the account", async () => {
    renderAt("/admin/commandes", "admin", "admin");
    expect(await screen.findByRole("heading", { level: 1, name: "Titre" })).toBeInTheDocument();
    const side = await sideMenu("Administration");
    expect(linksOf(side)).toEqual([
      ["Tableau de bord", "/admin"],
      ["Événements", "/admin/evenements"],
      ["Utilisateurs", "/admin/utilisateurs"],
      ["Commentaires signalés", "/admin/commentaires"],
      ["Activités importées", "/admin/activities"],
      ["Demandes de résultats", "/admin/resultats"],
      ["Ventes et commandes", "/admin/commandes"],
      ["Journaux", "/admin/journaux"],
      ["Retour à mon compte", "/user/profil"],
    ]);
    expect(within(side).getByRole("link", { name: "Ventes et commandes" })).toHaveAttribute("aria-current", "page");
  });

  it("counts what waits beside its section, in words for screen readers, nothing when none waits", async () => {
    const router = createMemoryRouter(
      [
        {
          id: "root",
          path: "/",
          loader: () => ({ user: { id: 1, role: "admin" } }),
          element: <Outlet />,
          HydrateFallback: () => null,
          children: [
            {
              id: "fr.adminShell",
              loader: () => ({ counts: { pendingEvents: 3, reportedComments: 0, resultClaims: 1, failedJobs: 0 } }),
              element: <Outlet />,
              children: [
                {
                  path: "*",
                  element: (
                    <AdminLayout locale="fr" title="Titre">
                      <p>page</p>
                    </AdminLayout>
                  ),
                },
              ],
            },
          ],
        },
      ],
      { initialEntries: ["/admin"] },
    );
    render(
      <I18nextProvider i18n={createI18n("fr")}>
        <RouterProvider router={router} />
      </I18nextProvider>,
    );
    const side = await sideMenu("Administration");
    expect(within(side).getByRole("link", { name: "Événements (3 événements en attente)" })).toBeInTheDocument();
    expect(within(side).getByRole("link", { name: "Demandes de résultats (1 demande à traiter)" })).toBeInTheDocument();
    expect(within(side).getByRole("link", { name: "Commentaires signalés" })).toBeInTheDocument();
    expect(within(side).getByRole("link", { name: "Tableau de bord" })).toBeInTheDocument();
  });
});
