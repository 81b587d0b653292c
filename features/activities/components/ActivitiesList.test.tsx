import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
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

const MESSAGE = "Ce fichier ne dit pas quand l'activité a eu lieu (ses points n'ont pas d'heure) : indiquez sa date.";

describe("the activity upload (issue 26 item 5)", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("asks for the day of files without times, with the API's words, and sends it", async () => {
    const bodies: FormData[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: string, init: RequestInit) => {
        const body = init.body as FormData;
        bodies.push(body);
        if (!body.get("date"))
          return new Response(
            JSON.stringify({ error: { code: "ACTIVITY_DATE_REQUIRED", message: MESSAGE, field: "date" } }),
            {
              status: 400,
              headers: { "content-type": "application/json" },
            },
          );
        return new Response(JSON.stringify({ files: [{ fileName: "plan.gpx", activity: { id: 1 } }] }), {
          status: 200,
          headers: { "content-type": "application/json" },
        });
      }),
    );
    // jsdom's FormData and validity checks read a file input's own list, which a test cannot fill:
    // the form's data get the files the test gave, as a browser's would.
    vi.stubGlobal(
      "FormData",
      class extends FormData {
        constructor(form?: HTMLFormElement) {
          super(form);
          const input = form?.querySelector<HTMLInputElement>('input[type="file"]');
          if (input) this.delete("file");
          for (const file of Array.from(input?.files ?? [])) this.append("file", file);
        }
      },
    );
    renderEmpty(false);
    const files = screen.getByLabelText("Fichiers d'activité");
    await userEvent.upload(files, new File(["<gpx/>"], "plan.gpx"));
    expect(screen.queryByLabelText("Date de l'activité")).toBeNull();
    fireEvent.submit(screen.getByRole("button", { name: "Importer" }).closest("form") as HTMLFormElement);

    await waitFor(() => expect(bodies).toHaveLength(1));
    const date = await screen.findByLabelText("Date de l'activité");
    expect(date).toHaveAttribute("type", "date");
    expect(date).toBeRequired();
    expect(date).toHaveAccessibleDescription(`${MESSAGE} Vos fichiers sans heure seront datés de ce jour.`);
    await waitFor(() => expect(date).toHaveFocus());

    fireEvent.change(date, { target: { value: "2010-06-12" } });
    fireEvent.submit(screen.getByRole("button", { name: "Importer" }).closest("form") as HTMLFormElement);
    await screen.findByText("plan.gpx importé");
    expect(bodies.at(-1)?.get("date")).toBe("2010-06-12");
  });
});
