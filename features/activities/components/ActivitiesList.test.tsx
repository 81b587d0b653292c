import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { activitiesQuerySchema } from "../activities.contract.ts";
import { ActivitiesList } from "./ActivitiesList.tsx";

function renderEmpty(stravaAvailable: boolean) {
  const list = (
    <ActivitiesList
      data={{ activities: [], total: 0, pageSize: 20, totals: [] }}
      query={activitiesQuerySchema.parse({})}
      type="activity"
      locale="fr"
      stravaAvailable={stravaAvailable}
    />
  );
  const router = createMemoryRouter([{ path: "/", element: list }]);
  return render(<RouterProvider router={router} />);
}

describe("an empty activities list", () => {
  it("offers to connect Strava where the site is set up for it", () => {
    renderEmpty(true);
    expect(screen.getByRole("link", { name: "Relier Strava" })).toBeTruthy();
  });

  it("offers files only, never Strava, where Strava is not set up", () => {
    renderEmpty(false);
    expect(screen.queryByRole("link", { name: "Relier Strava" })).toBeNull();
    expect(screen.getByText(/envoyez vos fichiers GPX, TCX ou FIT/)).toBeTruthy();
  });
});
