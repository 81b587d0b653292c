import { render, screen } from "@testing-library/react";
import { createRoutesStub, data } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { ErrorBoundary } from "./root.tsx";

function renderFailing(loader: () => unknown, path = "/") {
  const Stub = createRoutesStub([
    { path: "/*", Component: () => <p>never</p>, loader, ErrorBoundary, HydrateFallback: () => null },
  ]);
  return render(<Stub initialEntries={[path]} />);
}

describe("root error boundary", () => {
  it("shows the spec's generic error message when a page fails", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    renderFailing(() => {
      throw new Error("database is down");
    });
    expect(await screen.findByRole("heading", { level: 1 })).toHaveTextContent("Une erreur est survenue");
    expect(screen.getByText("Une erreur est survenue, merci de réessayer.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Retour à l'accueil" })).toHaveAttribute("href", "/");
    spy.mockRestore();
  });

  it("shows the item-not-found page for a missing item", async () => {
    renderFailing(() => {
      throw data({ kind: "item" }, { status: 404 });
    });
    expect(await screen.findByText("Élément, article ou page introuvable.")).toBeInTheDocument();
  });

  it("links back to the home page of the page's language", async () => {
    renderFailing(() => {
      throw data(null, { status: 404 });
    }, "/en/nowhere");
    expect(await screen.findByRole("link", { name: /home|accueil/i })).toHaveAttribute("href", "/en");
  });
});
