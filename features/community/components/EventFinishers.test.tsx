import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Finishers } from "../community.contract.ts";
import EventFinishers from "./EventFinishers.tsx";

afterEach(() => vi.unstubAllGlobals());

function stubFetch(status: number, body: unknown) {
  const urls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    }),
  );
  return urls;
}

const answer: Finishers = {
  eventId: 12,
  finishers: 214,
  members: [
    {
      slug: "ana-trail",
      displayName: "Ana Trail",
      initials: "AT",
      photoUrl: null,
      city: "Annecy",
      course: "Le 42 km",
      timeMs: 13_505_400,
      rank: 18,
    },
  ],
  privateMembers: 3,
};

describe("an edition's finishers on the event page", () => {
  it("names the public members with their course and time, and counts the others", async () => {
    const urls = stubFetch(200, answer);
    render(<EventFinishers eventId={12} locale="fr" />);
    expect(await screen.findByRole("heading", { name: /Finishers/ })).toHaveTextContent("214 finishers");
    expect(urls).toEqual(["/api/community/finishers/12"]);
    const link = screen.getByRole("link", { name: /Ana Trail/ });
    expect(link).toHaveAttribute("href", "/membre/ana-trail");
    expect(link).toHaveTextContent("Le 42 km · 3:45:05");
    expect(screen.getByText("et 3 membres au profil privé")).toBeInTheDocument();
  });

  it("shows nothing for an edition without results", async () => {
    stubFetch(200, { ...answer, finishers: 0, members: [], privateMembers: 0 });
    const { container } = render(<EventFinishers eventId={12} locale="en" />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(container).toBeEmptyDOMElement();
  });
});
