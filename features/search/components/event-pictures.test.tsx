import { render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { EventHero } from "../../events/components/EventHero.tsx";
import type { EventDetail } from "../../events/event-detail.contract.ts";
import { generatedImagePath } from "../../illustrations/event-images.ts";
import { sportArtUrl } from "../../illustrations/sport-art-urls.ts";
import type { SearchItem } from "../search.contract.ts";
import { HomeGroups } from "./HomeGroups.tsx";
import { ResultList } from "./ResultList.tsx";

const landscape = generatedImagePath({
  sport: "trail",
  terrain: "mountain",
  seed: 42,
  profile: [0, 5, 12, 20, 28, 35, 30, 24, 15, 9, 12, 18, 26, 19, 8, 2],
});

function item(id: number, overrides: Partial<SearchItem> = {}): SearchItem {
  return {
    id,
    slug: `course-${id}`,
    name: `Course ${id}`,
    sport: "trail",
    startDate: "2026-06-14",
    endDate: "2026-06-14",
    city: "Annecy",
    departmentCode: "74",
    departmentName: "Haute-Savoie",
    scope: "regional",
    state: "upcoming",
    distances: [12_000, 25_000],
    durations: [],
    maxElevation: 1200,
    coverImage: null,
    lat: null,
    lng: null,
    distanceKm: null,
    ...overrides,
  };
}

function inRouter(element: ReactNode) {
  const router = createMemoryRouter([{ path: "/", element }], { initialEntries: ["/"] });
  return render(<RouterProvider router={router} />);
}

const pictures = () => screen.getAllByRole("presentation") as HTMLImageElement[];

describe("event pictures on cards", () => {
  const items = [
    item(1, { coverImage: "0123456789abcdef0123.webp" }),
    item(2, { coverImage: landscape }),
    item(3, { sport: "swimrun" }),
    item(4, { coverImage: landscape }),
  ];

  it("grid: the cover in the card crops with srcset, sizes and a fixed 16:10 size; the first ones at once", () => {
    inRouter(<ResultList items={items} layout="grid" locale="fr" eager={2} />);
    const [upload, drawn, none, later] = pictures();
    expect(upload.getAttribute("src")).toBe("/media/event/1/0123456789abcdef0123-480x300.webp");
    expect(upload.getAttribute("srcset")).toBe(
      "/media/event/1/0123456789abcdef0123-480x300.webp 480w, /media/event/1/0123456789abcdef0123-960x600.webp 960w",
    );
    expect(upload.getAttribute("sizes")).toMatch(/^\(min-width:1280px\) 256px,.*100vw$/);
    expect([upload.getAttribute("width"), upload.getAttribute("height")]).toEqual(["960", "600"]);
    expect(upload.getAttribute("alt")).toBe("");
    expect(upload.getAttribute("loading")).toBeNull();
    expect(drawn.getAttribute("src")).toBe(landscape.replace(".webp", "-480x300.webp"));
    expect(drawn.getAttribute("loading")).toBeNull();
    expect(later.getAttribute("loading")).toBe("lazy");
    // No picture: the sport's own, not a hole.
    expect(none.getAttribute("src")).toBe(sportArtUrl("swimrun"));
    expect(sportArtUrl("swimrun")).toMatch(/swimrun.*\.svg/);
    expect(none.getAttribute("srcset")).toBeNull();
    expect(none.getAttribute("loading")).toBe("lazy");
    expect([none.getAttribute("width"), none.getAttribute("height")]).toEqual(["960", "600"]);
    // Still named in words: the sport is written on the card.
    expect(screen.getAllByText("Swimrun").length).toBeGreaterThan(0);
  });

  it("list: a small thumbnail of each race, the sport's picture when it has none", () => {
    inRouter(<ResultList items={items.slice(0, 3)} layout="list" locale="en" />);
    const [upload, , none] = pictures();
    expect(upload.getAttribute("src")).toBe("/media/event/1/0123456789abcdef0123-480x300.webp");
    expect(upload.getAttribute("srcset")).toBeNull();
    expect(upload.getAttribute("loading")).toBe("lazy");
    expect(none.getAttribute("src")).toBe(sportArtUrl("swimrun"));
  });

  it("home rows: a picture on top of each card, the first row's first cards at once", () => {
    inRouter(
      <HomeGroups
        groups={[
          { key: "this_weekend", events: items.slice(0, 4) },
          { key: "new", events: [item(5, { coverImage: landscape })] },
        ]}
        locale="fr"
      />,
    );
    const all = pictures();
    expect(all).toHaveLength(5);
    expect(all.map((img) => img.getAttribute("sizes"))).toEqual(["256px", "256px", null, "256px", "256px"]);
    expect(all.map((img) => img.getAttribute("loading"))).toEqual([null, null, null, "lazy", "lazy"]);
    expect(screen.getAllByText("12 km · 25 km")).toHaveLength(5);
  });
});

describe("event header", () => {
  const event = {
    name: "Ultra des Aravis",
    sport: { key: "ultra_trail", nameFr: "Ultra-trail", nameEn: "Ultra trail" },
    state: "upcoming",
    postponed: false,
    originalDate: null,
    startDate: "2026-07-04",
    endDate: "2026-07-05",
    place: { city: "Cordon", department: { code: "74", name: "Haute-Savoie", slug: "haute-savoie" } },
    headerImage: null,
    coverImage: null,
  } as unknown as EventDetail;
  const hero = (overrides: Partial<EventDetail>) =>
    inRouter(<EventHero event={{ ...event, ...overrides }} locale="fr" crumbs={[]} />);

  it("shows the organiser's header photo, described, at the size of the screen", () => {
    hero({ headerImage: "/media/event/9/0123456789abcdef0123.webp" });
    const photo = screen.getByRole("img", { name: "Photo d'Ultra des Aravis" });
    expect(photo.getAttribute("srcset")).toBe(
      "/media/event/9/0123456789abcdef0123-960x600.webp 960w, /media/event/9/0123456789abcdef0123.webp 1600w",
    );
    expect(photo.getAttribute("sizes")).toBe("100vw");
  });

  it("shows a demo event's landscape, else the sport's picture, as decoration", () => {
    hero({ coverImage: landscape, headerImage: landscape });
    expect(screen.getByRole("presentation").getAttribute("src")).toBe(landscape);
    document.body.innerHTML = "";
    hero({});
    expect(screen.getByRole("presentation").getAttribute("src")).toBe(sportArtUrl("ultra_trail"));
  });
});
