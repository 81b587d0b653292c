import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RaceMap, type RaceMapProps } from "./RaceMap.tsx";

function renderMap(props: RaceMapProps) {
  const router = createMemoryRouter(
    [{ id: "root", path: "/", loader: () => ({ mapStyleUrl: "" }), element: <RaceMap {...props} /> }],
    {
      hydrationData: { loaderData: { root: { mapStyleUrl: "" } } },
    },
  );
  return render(<RouterProvider router={router} />);
}

const line: [number, number][] = [
  [6.86, 45.92],
  [6.87, 45.93],
  [6.88, 45.925],
];

describe("RaceMap without WebGL (server rendering, jsdom, old browsers)", () => {
  beforeEach(() => {
    // No WebGL here: the map must stay a drawing and never import MapLibre.
    vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockReturnValue(null);
  });
  afterEach(() => vi.restoreAllMocks());

  it("draws the line and its start and finish markers as a labelled image", () => {
    const { container } = renderMap({
      label: "Carte du parcours : 42 km",
      line,
      markers: [
        { id: "start", lng: 6.86, lat: 45.92, kind: "start", label: "Départ" },
        { id: "finish", lng: 6.88, lat: 45.925, kind: "finish", label: "Arrivée" },
      ],
    });
    const image = screen.getByRole("img", { name: "Carte du parcours : 42 km" });
    expect(image.tagName.toLowerCase()).toBe("svg");
    const drawn = [...container.querySelectorAll("g[fill='none'] > *")];
    expect(drawn).toHaveLength(2);
    expect(
      drawn.map((el) => (el.getAttribute("d") ?? el.getAttribute("points") ?? "").match(/M/g)?.length ?? 1),
    ).toEqual([1, 1]);
    expect(container.querySelectorAll("circle")).toHaveLength(2);
    expect(container.querySelector("[data-map-ready]")).toHaveAttribute("data-map-ready", "false");
  });

  it("draws a track of two segments as two lines, nothing across the gap (issue 26 item 4)", () => {
    const { container } = renderMap({
      label: "Carte du parcours",
      line: [...line, [6.95, 45.92], [6.96, 45.93]],
      breaks: [3],
    });
    const drawn = [...container.querySelectorAll("g[fill='none'] > *")];
    expect(drawn).toHaveLength(2);
    for (const el of drawn) {
      expect(el.tagName.toLowerCase()).toBe("path");
      expect(el.getAttribute("d")?.match(/M/g)).toHaveLength(2);
    }
  });

  it("puts a single place in the middle with a pin", () => {
    const { container } = renderMap({
      label: "Carte du lieu",
      markers: [{ id: "p", lat: 48.85, lng: 2.35, label: "Paris", kind: "place" }],
    });
    expect(screen.getByRole("img", { name: "Carte du lieu" })).toBeInTheDocument();
    expect(container.querySelector("g[transform]")).toHaveAttribute("transform", "translate(240 150)");
  });

  it("draws the base map's outlines of the area under the markers", () => {
    const { container } = renderMap({
      label: "Carte du lieu",
      markers: [{ id: "p", lat: 48.85, lng: 2.35, label: "Paris", kind: "place" }],
    });
    const href = container.querySelector("svg image")?.getAttribute("href") ?? "";
    const url = new URL(href, "http://localhost");
    expect(url.pathname).toBe("/basemap/outline.svg");
    expect(url.searchParams.get("size")).toBe("960x600");
    const [west, south, east, north] = (url.searchParams.get("bbox") ?? "").split(",").map(Number);
    // Twice the drawing each way, centred on the place: a few kilometres around Paris.
    expect((west + east) / 2).toBeCloseTo(2.35, 4);
    expect((south + north) / 2).toBeCloseTo(48.85, 4);
    expect(north - south).toBeGreaterThan(0.05);
    expect(north - south).toBeLessThan(0.5);
  });

  it("shows France when there is nothing to place", () => {
    const { container } = renderMap({ label: "Courses", markers: [] });
    const bbox = new URL(
      container.querySelector("svg image")?.getAttribute("href") ?? "",
      "http://localhost",
    ).searchParams
      .get("bbox")
      ?.split(",")
      .map(Number);
    expect(bbox?.[0]).toBeLessThan(-5);
    expect(bbox?.[2]).toBeGreaterThan(9.5);
  });

  it("shows the given fallback instead of the drawing", () => {
    renderMap({ label: "Courses", markers: [], cluster: true, fallback: <p>Liste des courses</p> });
    expect(screen.getByText("Liste des courses")).toBeInTheDocument();
    expect(screen.queryByRole("img")).not.toBeInTheDocument();
  });
});
