import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { chartScale, ElevationChart, niceStep } from "./ElevationChart.tsx";

describe("chart scale", () => {
  it("rounds steps to 1, 2, 2.5 or 5 times a power of ten", () => {
    expect([0.3, 1, 1.5, 2.2, 4, 7, 120, 260].map(niceStep)).toEqual([0.5, 1, 2, 2.5, 5, 10, 200, 500]);
  });

  it("bounds the elevation on round values, at least 100 m high, and ticks the distance in km", () => {
    const profile: [number, number][] = [
      [0, 1012],
      [21_000, 1890],
      [42_195, 1030],
    ];
    const scale = chartScale(profile, 42_195);
    expect(scale.yMin).toBe(1000);
    expect(scale.yMax).toBe(2000);
    expect(scale.yTicks).toEqual([1000, 1250, 1500, 1750, 2000]);
    expect(scale.xTicks).toEqual([0, 10, 20, 30, 40]);
    const flat = chartScale(
      [
        [0, 267],
        [10_000, 273],
      ],
      10_000,
    );
    expect(flat.yMax - flat.yMin).toBeGreaterThanOrEqual(100);
    expect(flat.yMin).toBeLessThanOrEqual(267);
  });
});

describe("ElevationChart", () => {
  it("is a labelled image with a text summary in the page's language", () => {
    render(
      <ElevationChart
        profile={[
          [0, 500],
          [5_000, 900],
          [10_000, 520],
        ]}
        name="Trail des crêtes"
        distance={10_000}
        elevationGain={420}
        elevationLoss={400}
        minElevation={500}
        maxElevation={900}
        locale="fr"
      />,
    );
    const image = screen.getByRole("img", { name: "Profil altimétrique : Trail des crêtes" });
    const summary = screen.getByText(/dénivelé négatif/);
    expect(image).toHaveAttribute("aria-describedby", summary.id);
    // Distance and D+ are the course's figures, shown once above the chart (issue 26 item 3).
    expect(summary.textContent).toBe("400\u00a0m de dénivelé négatif ; altitude de 500\u00a0m à 900\u00a0m.");
    expect(screen.getByRole("heading", { name: "Profil altimétrique" })).toBeInTheDocument();
  });

  it("draws each segment of a track on its own, nothing across the gap, and marks it (issue 26 item 4)", () => {
    render(
      <ElevationChart
        profile={[
          [0, 500],
          [1_000, 500],
          [1_000, 800],
          [2_000, 850],
        ]}
        breaks={[2]}
        name="Deux morceaux"
        distance={2_000}
        elevationGain={50}
        elevationLoss={0}
        minElevation={500}
        maxElevation={850}
        locale="fr"
      />,
    );
    const image = screen.getByRole("img", { name: "Profil altimétrique : Deux morceaux" });
    const line = image.querySelector("path[stroke]")!.getAttribute("d")!;
    expect(line.match(/M/g)).toHaveLength(2);
    expect(image.querySelectorAll("[data-gap]")).toHaveLength(1);
    expect(screen.getByText(/tronçons/).textContent).toContain("La trace compte 2 tronçons");
  });

  it("draws nothing, and so shows no 0 m, for a track whose D+ is unknown", () => {
    const { container } = render(
      <ElevationChart
        profile={[]}
        name="Sans altitude"
        distance={10_000}
        elevationGain={null}
        elevationLoss={null}
        minElevation={null}
        maxElevation={null}
        locale="fr"
      />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});
