import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider, useLocation } from "react-router";
import { describe, expect, it } from "vitest";
import { parseSearchParams } from "../search-url.ts";
import { FilterPanel, SEARCH_FORM_ID } from "./FilterPanel.tsx";
import { useSearchState } from "./use-search-state.ts";

const regions = [
  { code: "84", name: "Auvergne-Rhône-Alpes", slug: "auvergne-rhone-alpes" },
  { code: "53", name: "Bretagne", slug: "bretagne" },
];
const departments = [
  { code: "38", name: "Isère", slug: "isere", regionCode: "84" },
  { code: "29", name: "Finistère", slug: "finistere", regionCode: "53" },
];

function Page() {
  const location = useLocation();
  const { query, view } = parseSearchParams(location.search);
  const state = useSearchState(query, view);
  return (
    <>
      <FilterPanel
        state={state}
        regions={regions}
        departments={departments}
        total={12}
        placeName="Grenoble"
        resultsHeadingId="results"
      />
      <h2 id="results" tabIndex={-1}>
        12 courses
      </h2>
      <output data-testid="url">{`${location.pathname}${location.search}`}</output>
    </>
  );
}

function renderAt(url: string) {
  const router = createMemoryRouter([{ path: "/", element: <Page /> }], { initialEntries: [url] });
  render(<RouterProvider router={router} />);
  return router;
}

const url = () => screen.getByTestId("url").textContent;

describe("FilterPanel", () => {
  it("is a GET form whose fields carry the search under its query names", async () => {
    renderAt("/?sport=trail,ultra_trail&region=84&department=38&place=38185&radius=50&elevation=lt100&cancelled=1");
    // Once hydrated, the UI kit's controls (loaded lazily) carry the values in hidden inputs.
    await screen.findByRole("combobox", { name: /Sports/ });
    const form = document.getElementById(SEARCH_FORM_ID) as HTMLFormElement;
    expect(form.method).toBe("get");
    await waitFor(() => {
      const data = new FormData(form);
      expect(data.getAll("sport")).toEqual(["trail", "ultra_trail"]);
      expect(data.get("region")).toBe("84");
      expect(data.get("department")).toBe("38");
      expect(data.get("place")).toBe("38185");
      expect(data.get("radius")).toBe("50");
      expect(data.getAll("elevation")).toEqual(["lt100"]);
      expect(data.get("cancelled")).toBe("1");
    });
    expect(parseSearchParams(new URLSearchParams(new FormData(form) as unknown as string)).query).toMatchObject({
      sport: ["trail", "ultra_trail"],
      region: "84",
    });
  });

  it("puts every change in the URL at once, back on page 1", async () => {
    const user = userEvent.setup();
    renderAt("/?sport=trail&page=3");
    await user.click(await screen.findByRole("checkbox", { name: /500–1 000 m/ }));
    await waitFor(() => expect(url()).toBe("/?sport=trail&elevation=500-1000"));
    await user.click(screen.getByRole("checkbox", { name: "Marathon" }));
    await waitFor(() => expect(url()).toBe("/?sport=trail&distance=marathon&elevation=500-1000"));
    await user.click(screen.getByRole("checkbox", { name: "Inclure les courses terminées" }));
    await waitFor(() => expect(url()).toBe("/?sport=trail&distance=marathon&elevation=500-1000&past=1"));
  });

  it("sends the text after a pause", async () => {
    const user = userEvent.setup();
    renderAt("/");
    await user.type(screen.getByRole("searchbox", { name: "Nom, ville ou organisateur" }), "lac");
    expect(url()).toBe("/");
    await waitFor(() => expect(url()).toBe("/?q=lac"));
  });

  it("gives the focus to the results once the phone's sheet sends its search", async () => {
    const user = userEvent.setup();
    renderAt("/");
    await user.click(await screen.findByRole("button", { name: "Filtres" }));
    await user.type(screen.getByRole("searchbox", { name: "Nom, ville ou organisateur" }), "lac");
    await user.click(screen.getByRole("button", { name: /^12 courses/ }));
    await waitFor(() => expect(url()).toBe("/?q=lac"));
    expect(screen.getByRole("button", { name: /^Filtres/ })).toHaveAttribute("aria-expanded", "false");
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: "12 courses" }));
  });

  it("empties the department when the region changes", async () => {
    const user = userEvent.setup();
    renderAt("/?region=84&department=38");
    await user.click(await screen.findByRole("combobox", { name: /Région/ }));
    await user.click(screen.getByRole("option", { name: "Bretagne" }));
    await waitFor(() => expect(url()).toBe("/?region=53"));
  });
});
