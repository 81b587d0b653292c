import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { emptyEvent } from "./form-model.ts";
import { renderEditor, savedEvent } from "./test-helpers.tsx";
import { validateCommunication, validateInfo } from "./validate.ts";

const t = (key: string) => key;

beforeEach(() => {
  window.localStorage.clear();
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockReturnValue(null); // no WebGL: the map says so
});
afterEach(() => vi.restoreAllMocks());

describe("step validation", () => {
  it("checks step 1 with the contract's rules, the dates and the certification", () => {
    const draft = { ...emptyEvent(), startDate: "2026-06-14", endDate: "2026-06-13", dateConfirmed: true };
    const errors = validateInfo(draft, t, "fr");
    expect(Object.keys(errors).sort()).toEqual(["certified", "city", "endDate", "name", "sport"]);
    expect(errors.endDate).toBe("common:errors.dateRangeInvalid");
    expect(errors.certified).toBe("common:errors.certificationRequired");
    expect(
      validateInfo(
        { ...draft, certified: true, endDate: "2026-06-14", name: "A", sport: "trail", city: "Lyon" },
        t,
        "fr",
      ),
    ).toEqual({});
  });

  it("refuses malformed addresses on step 2 and completes bare host names", () => {
    const draft = {
      ...emptyEvent(),
      website: "pas une adresse",
      facebookUrl: "www.facebook.com/trail",
      contactPhone: "abc",
    };
    const errors = validateCommunication(draft, t, "fr");
    expect(errors).toEqual({ website: "common:errors.urlInvalid", contactPhone: "editor:errors.phone" });
  });

  it("keeps a new event on step 1 until it is valid, shows each error beside its field and focuses the first", async () => {
    renderEditor(null, "/user/evenement/0");
    fireEvent.click(screen.getByTestId("next-step"));
    await waitFor(() => expect(document.activeElement?.id).toBe("ef-name"));
    expect(screen.getByTestId("error-summary")).toHaveTextContent("5 champs sont à corriger sur cette étape.");
    const name = screen.getByLabelText(/Nom de l'événement/);
    expect(name).toHaveAttribute("aria-invalid", "true");
    expect(name).toHaveAccessibleDescription(expect.stringContaining("Ce champ est obligatoire."));
    const current = screen
      .getByRole("navigation", { name: "Étapes du formulaire" })
      .querySelector('[aria-current="step"]');
    expect(current).toHaveAttribute("data-step", "info");
    // Fixing a field clears its error at once: the step is now checked as it is edited.
    fireEvent.change(name, { target: { value: "Trail des Crêtes" } });
    await waitFor(() => expect(name).not.toHaveAttribute("aria-invalid"));
    expect(screen.getByTestId("error-summary")).toHaveTextContent("4 champs");
  });

  it("moves on when the step is valid, and lets visited steps be chosen again", async () => {
    renderEditor(savedEvent());
    const steps = () => screen.getByRole("navigation", { name: "Étapes du formulaire" });
    fireEvent.click(screen.getByTestId("next-step"));
    await waitFor(() =>
      expect(steps().querySelector('[aria-current="step"]')).toHaveAttribute("data-step", "communication"),
    );
    expect(screen.getByRole("heading", { level: 2 })).toHaveTextContent("Étape 2 sur 4Communication");
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("heading", { level: 2 })));
    expect(screen.getByTestId("step-announcement")).toHaveTextContent("Étape 2 sur 4 : Communication");

    // A bad address on step 2 blocks the way to step 3.
    fireEvent.change(screen.getByLabelText("Site web"), { target: { value: "n'importe quoi" } });
    fireEvent.click(screen.getByTestId("next-step"));
    await waitFor(() => expect(document.activeElement?.id).toBe("ef-website"));
    expect(screen.getByLabelText("Site web")).toHaveAccessibleDescription("Adresse web invalide (https://…).");

    // Step 1 was visited: its button takes us back without checking anything.
    fireEvent.click(within(steps()).getByRole("button", { name: /Informations/ }));
    await waitFor(() => expect(steps().querySelector('[aria-current="step"]')).toHaveAttribute("data-step", "info"));
  });
});
