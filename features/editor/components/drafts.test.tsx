import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { draftKey, readDraft, writeDraft } from "./drafts.ts";
import { draftFromEvent } from "./form-model.ts";
import { renderEditor, savedEvent } from "./test-helpers.tsx";

beforeEach(() => {
  window.localStorage.clear();
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockReturnValue(null);
});
afterEach(() => vi.restoreAllMocks());

const key = draftKey(5, 42);

describe("drafts", () => {
  it("keeps unsaved edits in the browser, per member and event", async () => {
    renderEditor(savedEvent());
    expect(readDraft(key)).toBeNull();
    fireEvent.change(screen.getByLabelText(/Nom de l'événement/), { target: { value: "Trail des Crêtes – nocturne" } });
    await waitFor(() => expect(readDraft(key)?.form.name).toBe("Trail des Crêtes – nocturne"));
    expect(readDraft(draftKey(5, null))).toBeNull();
    expect(screen.getByTestId("unsaved")).toHaveTextContent("Modifications non enregistrées");
  });

  it("offers a draft back on load and restores it", async () => {
    const form = { ...draftFromEvent(savedEvent(), "fr"), name: "Nom du brouillon" };
    writeDraft(key, form, "communication", new Date("2026-03-02T09:15:00Z"));
    renderEditor(savedEvent());
    const prompt = await screen.findByTestId("draft-prompt");
    expect(prompt).toHaveTextContent(
      "Un brouillon non enregistré du 02/03/26 à 09:15 a été retrouvé sur cet appareil.",
    );
    // The page shows the saved event until the member chooses.
    expect(screen.getByLabelText(/Nom de l'événement/)).toHaveValue("Trail des Crêtes");
    fireEvent.click(screen.getByRole("button", { name: "Restaurer le brouillon" }));
    await waitFor(() => expect(screen.queryByTestId("draft-prompt")).toBeNull());
    // Back on the step it was left on.
    expect(screen.getByRole("heading", { level: 2 })).toHaveTextContent("Communication");
    fireEvent.click(screen.getByRole("button", { name: /Informations/ }));
    expect(await screen.findByLabelText(/Nom de l'événement/)).toHaveValue("Nom du brouillon");
  });

  it("discards a draft on request", async () => {
    writeDraft(key, { ...draftFromEvent(savedEvent(), "fr"), name: "Autre nom" }, "info");
    renderEditor(savedEvent());
    fireEvent.click(await screen.findByRole("button", { name: "Ignorer" }));
    await waitFor(() => expect(screen.queryByTestId("draft-prompt")).toBeNull());
    expect(readDraft(key)).toBeNull();
    expect(screen.getByLabelText(/Nom de l'événement/)).toHaveValue("Trail des Crêtes");
  });

  it("forgets a draft identical to the saved event", async () => {
    writeDraft(key, draftFromEvent(savedEvent(), "fr"), "info");
    renderEditor(savedEvent());
    await waitFor(() => expect(readDraft(key)).toBeNull());
    expect(screen.queryByTestId("draft-prompt")).toBeNull();
  });

  it("clears the draft after a successful save", async () => {
    writeDraft(key, { ...draftFromEvent(savedEvent(), "fr"), name: "Trail des Crêtes 2" }, "info");
    const fetchMock = vi.spyOn(globalThis, "fetch").mockResolvedValue(
      new Response(
        JSON.stringify({ event: savedEvent({ name: "Trail des Crêtes 2" }), requestId: null, created: false }),
        {
          status: 200,
          headers: { "content-type": "application/json" },
        },
      ),
    );
    renderEditor(savedEvent());
    fireEvent.click(await screen.findByRole("button", { name: "Restaurer le brouillon" }));
    fireEvent.click(screen.getByTestId("save-event"));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe("/api/event/42");
    expect(JSON.parse(String(init.body))).toMatchObject({
      name: "Trail des Crêtes 2",
      courses: [{ id: 7, distance: 25000 }],
    });
    await waitFor(() => expect(readDraft(key)).toBeNull());
    await waitFor(() => expect(screen.queryByTestId("unsaved")).toBeNull());
  });
});
