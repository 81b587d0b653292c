import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { testI18n } from "../../../shared/i18n/test-init.ts";
import { emptyCourse, emptyPrice } from "./form-model.ts";
import { renderEditor, savedEvent } from "./test-helpers.tsx";
import { courseMissing, validateCourse } from "./validate.ts";

const t = testI18n.getFixedT("fr", "editor");
const event = { startDate: "2026-06-13", endDate: "2026-06-14" };

beforeEach(() => {
  window.localStorage.clear();
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockReturnValue(null);
});
afterEach(() => vi.restoreAllMocks());

function course(overrides: Partial<ReturnType<typeof emptyCourse>> = {}) {
  return { ...emptyCourse("2026-06-14"), name: "10 km", distance: "10", ...overrides };
}

describe("price periods", () => {
  it("refuses overlapping periods, naming the one overlapped", () => {
    const prices = [
      { ...emptyPrice(), label: "Prévente", startsOn: "2026-01-01", endsOn: "2026-05-31", price: "20" },
      { ...emptyPrice(), label: "Sur place", startsOn: "2026-05-15", endsOn: null, price: "25,50" },
    ];
    const errors = validateCourse(course({ prices }), 0, event, t, "fr");
    expect(errors).toEqual({
      "courses.0.prices.1.startsOn": "Les périodes de tarif se chevauchent : celle-ci empiète sur « Prévente ».",
    });
    const apart = [prices[0], { ...prices[1], startsOn: "2026-06-01" }] as typeof prices;
    expect(validateCourse(course({ prices: apart }), 0, event, t, "fr")).toEqual({});
  });

  it("reads prices with a decimal comma and refuses what is not a number", () => {
    const prices = [{ ...emptyPrice(), label: "Normal", price: "vingt" }];
    expect(validateCourse(course({ prices }), 0, event, t, "fr")).toEqual({
      "courses.0.prices.0.price": "Saisissez un nombre, par exemple 42,195.",
    });
  });

  it("shows the overlap message beside the period's start date when saving", async () => {
    const base = savedEvent();
    const first = base.courses[0];
    if (!first) throw new Error("fixture");
    renderEditor(
      savedEvent({
        courses: [
          {
            ...first,
            prices: [
              { label: "Prévente", startsOn: null, endsOn: "2026-05-31", price: 25 },
              { label: "Sur place", startsOn: "2026-05-01", endsOn: null, price: 30 },
            ],
          },
        ],
      }),
    );
    fireEvent.click(screen.getByTestId("save-event"));
    await waitFor(() =>
      expect(
        screen.getByRole("navigation", { name: "Étapes du formulaire" }).querySelector('[aria-current="step"]'),
      ).toHaveAttribute("data-step", "courses"),
    );
    const start = document.querySelector('[data-field="courses.0.prices.1.startsOn"]') as HTMLElement;
    await waitFor(() =>
      expect(within(start).getByTestId("field-error")).toHaveTextContent(
        "Les périodes de tarif se chevauchent : celle-ci empiète sur « Prévente ».",
      ),
    );
    await waitFor(() => expect(start.contains(document.activeElement)).toBe(true));
  });
});

describe("course completeness", () => {
  it("lists what a course lacks", () => {
    expect(courseMissing(course(), 0, event, t, "fr")).toEqual([]);
    expect(courseMissing(course({ name: "", distance: "" }), 0, event, t, "fr").sort()).toEqual(["distance", "name"]);
    expect(courseMissing(course({ measure: "duration", duration: null }), 0, event, t, "fr")).toEqual(["duration"]);
    expect(courseMissing(course({ date: "2026-07-01" }), 0, event, t, "fr")).toEqual(["date"]);
  });

  it("says it on the card, in words, and updates as the course is filled", async () => {
    renderEditor(savedEvent());
    fireEvent.click(
      within(screen.getByRole("navigation", { name: "Étapes du formulaire" })).getByRole("button", {
        name: /Épreuves/,
      }),
    );
    await screen.findByText("Épreuve complète");
    fireEvent.click(screen.getByRole("button", { name: "Ajouter une épreuve" }));
    const cards = await screen.findAllByTestId("course-card");
    expect(cards).toHaveLength(2);
    const second = cards[1] as HTMLElement;
    expect(within(second).getByTestId("course-completeness")).toHaveTextContent("Épreuve incomplète");
    expect(within(second).getByTestId("course-missing")).toHaveTextContent("À compléter : le nom, la distance.");
    fireEvent.change(within(second).getByLabelText(/Nom de l'épreuve/), { target: { value: "Randonnée" } });
    fireEvent.change(within(second).getByLabelText(/^Distance/), { target: { value: "8,5" } });
    await waitFor(() =>
      expect(within(second).getByTestId("course-completeness")).toHaveTextContent("Épreuve complète"),
    );
    expect(within(second).getByRole("heading", { level: 3 })).toHaveTextContent("Épreuve 2 : Randonnée");
    expect(second.textContent).toContain("8,5\u00a0km"); // a no-break space keeps the unit with its number
  });

  it("never removes the last course, and says why", async () => {
    renderEditor(savedEvent());
    fireEvent.click(
      within(screen.getByRole("navigation", { name: "Étapes du formulaire" })).getByRole("button", {
        name: /Épreuves/,
      }),
    );
    const remove = await screen.findByRole("button", { name: "Supprimer « Trail 25 km »" });
    expect(remove).toBeDisabled();
    expect(remove).toHaveAccessibleDescription(
      "Impossible de supprimer toutes les épreuves. Un événement garde au moins une épreuve.",
    );
    fireEvent.click(screen.getByRole("button", { name: "Dupliquer « Trail 25 km »" }));
    await waitFor(() => expect(screen.getAllByTestId("course-card")).toHaveLength(2));
    expect(screen.getByRole("button", { name: "Supprimer « Trail 25 km »" })).toBeEnabled();
    expect(screen.getByRole("heading", { name: "Épreuve 2 : Trail 25 km (copie)" })).toBeInTheDocument();
  });
});

/** The browser's upload of a GPX file, answered with a track of 13.2 km and 958 m of D+. */
class FakeUpload {
  static answer = {
    track: { id: 991, name: "Boucle", distance: 13_213, elevationGain: 958 },
    suggestions: { distance: 13_213, elevationGain: 958 },
  };
  status = 200;
  responseText = JSON.stringify(FakeUpload.answer);
  responseType = "";
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open() {}
  setRequestHeader() {}
  abort() {}
  send() {
    setTimeout(() => this.onload?.(), 0);
  }
}

async function uploadGpx(card: HTMLElement) {
  const input = within(card).getByTestId("gpx-input");
  fireEvent.change(input, { target: { files: [new File(["<gpx/>"], "boucle.gpx", { type: "application/gpx+xml" })] } });
  await within(card).findByTestId("gpx-track");
}

describe("a course's GPX track (issue 26 item 3)", () => {
  beforeEach(() => {
    vi.stubGlobal("XMLHttpRequest", FakeUpload);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("fills the distance and D+ left empty from the track", async () => {
    renderEditor(savedEvent());
    fireEvent.click(
      within(screen.getByRole("navigation", { name: "Étapes du formulaire" })).getByRole("button", {
        name: /Épreuves/,
      }),
    );
    fireEvent.click(await screen.findByRole("button", { name: "Ajouter une épreuve" }));
    const card = (await screen.findAllByTestId("course-card"))[1] as HTMLElement;
    await uploadGpx(card);
    expect(within(card).getByTestId("gpx-track")).toHaveTextContent("Calculé depuis la trace : 13,2 km · D+ 958 m");
    await waitFor(() => expect(within(card).getByLabelText(/^Distance/)).toHaveValue("13,21"));
    expect(within(card).getByLabelText(/Dénivelé positif/)).toHaveValue("958");
    // Nothing left to offer: the fields hold the track's figures.
    expect(within(card).queryByTestId("gpx-offer-distance")).toBeNull();
    expect(within(card).queryByTestId("gpx-offer-elevation")).toBeNull();
  });

  it("offers the track's figures where they differ from what the organiser typed, and keeps theirs until asked", async () => {
    renderEditor(savedEvent());
    fireEvent.click(
      within(screen.getByRole("navigation", { name: "Étapes du formulaire" })).getByRole("button", {
        name: /Épreuves/,
      }),
    );
    const card = (await screen.findAllByTestId("course-card"))[0] as HTMLElement;
    await uploadGpx(card);
    expect(within(card).getByLabelText(/^Distance/)).toHaveValue("25");
    expect(within(card).getByLabelText(/Dénivelé positif/)).toHaveValue("1200");
    const offer = within(card).getByRole("button", { name: "La trace donne 13,2\u00a0km : utiliser ?" });
    within(card).getByRole("button", { name: "La trace donne D+\u00a0958\u00a0m : utiliser ?" });
    fireEvent.click(offer);
    await waitFor(() => expect(within(card).getByLabelText(/^Distance/)).toHaveValue("13,21"));
    expect(within(card).queryByTestId("gpx-offer-distance")).toBeNull();
    expect(within(card).getByLabelText(/Dénivelé positif/)).toHaveValue("1200");
  });
});
