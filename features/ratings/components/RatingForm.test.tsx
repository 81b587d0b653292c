import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RatingSummary } from "../ratings.contract.ts";
import { RatingForm } from "./RatingForm.tsx";

const answer: RatingSummary = {
  eventId: 7,
  average: 4,
  count: 1,
  distribution: [0, 0, 0, 1, 0],
  criteria: {
    course: { average: 5, count: 1 },
    organisation: { average: null, count: 0 },
    atmosphere: { average: null, count: 0 },
    value: { average: null, count: 0 },
    difficulty: { average: null, count: 0 },
  },
  open: true,
  mine: null,
};

afterEach(() => vi.unstubAllGlobals());

function stubFetch(status: number, body: unknown) {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    }),
  );
  return calls;
}

describe("the rate-this-race form", () => {
  it("asks for an overall rating before sending anything", async () => {
    const calls = stubFetch(200, answer);
    render(<RatingForm eventId={7} initial={null} onSaved={() => {}} onCancel={() => {}} />);
    await userEvent.click(screen.getByRole("button", { name: "Enregistrer ma note" }));
    expect(screen.getByText("Choisissez une note globale de 1 à 5.")).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("sends the stars chosen with the keyboard and the mouse, criteria left out as null", async () => {
    const calls = stubFetch(200, answer);
    const onSaved = vi.fn();
    render(<RatingForm eventId={7} initial={null} onSaved={onSaved} onCancel={() => {}} />);
    const overall = screen.getByRole("group", { name: /Note globale/ });
    await userEvent.click(within(overall).getByRole("radio", { name: "3 étoiles" }));
    // Arrow keys move between the stars, as in any radio group.
    await userEvent.keyboard("{ArrowRight}");
    expect(within(overall).getByRole("radio", { name: "4 étoiles" })).toBeChecked();
    const course = screen.getByRole("group", { name: /Parcours/ });
    await userEvent.click(within(course).getByRole("radio", { name: "5 étoiles" }));
    await userEvent.click(screen.getByRole("button", { name: "Enregistrer ma note" }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledWith(answer));
    expect(calls[0].url).toBe("/api/rating");
    expect(JSON.parse(String(calls[0].init.body))).toEqual({
      eventId: 7,
      overall: 4,
      course: 5,
      organisation: null,
      atmosphere: null,
      value: null,
      difficulty: null,
    });
  });

  it("starts from the member's own rating and shows the API's message when refused", async () => {
    stubFetch(409, { error: { code: "EVENT_NOT_YET_HELD", message: "Cette course n'a pas encore eu lieu." } });
    const onSaved = vi.fn();
    render(
      <RatingForm
        eventId={7}
        initial={{
          overall: 2,
          course: null,
          organisation: 3,
          atmosphere: null,
          value: null,
          difficulty: null,
          updatedAt: "2026-05-01T10:00:00.000Z",
        }}
        onSaved={onSaved}
        onCancel={() => {}}
      />,
    );
    expect(
      within(screen.getByRole("group", { name: /Note globale/ })).getByRole("radio", { name: "2 étoiles" }),
    ).toBeChecked();
    expect(
      within(screen.getByRole("group", { name: /Organisation/ })).getByRole("radio", { name: "3 étoiles" }),
    ).toBeChecked();
    expect(
      within(screen.getByRole("group", { name: /Ambiance/ })).getByRole("radio", { name: "Sans avis" }),
    ).toBeChecked();
    await userEvent.click(screen.getByRole("button", { name: "Enregistrer ma note" }));
    expect(await screen.findByText("Cette course n'a pas encore eu lieu.")).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
  });
});
