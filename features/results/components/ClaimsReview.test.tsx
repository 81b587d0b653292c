import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ClaimForReview, MemberClaim } from "../claims.contract.ts";
import { ClaimsReview } from "./ClaimsReview.tsx";
import { MyClaims } from "./MyClaims.tsx";

afterEach(() => vi.unstubAllGlobals());

const claim: ClaimForReview = {
  id: 41,
  createdAt: "2026-05-20T08:00:00.000Z",
  member: { name: "Camille Martin", slug: null },
  line: {
    id: 6,
    name: "COUREUR Six",
    bib: "106",
    rank: 6,
    timeMs: 10_500_000,
    timeBasis: "official",
    club: null,
    category: "SEH",
  },
  lineTaken: false,
  course: { id: 3, name: "Marathon", distance: 42_195 },
  event: { id: 12, name: "Marathon des Canuts", slug: "marathon-des-canuts", date: "2026-05-10" },
};

describe("claims waiting for the organiser", () => {
  it("shows the line's name beside the member's and posts the organiser's decision", async () => {
    const calls: { url: string; body: unknown }[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push({ url, body: JSON.parse(String(init?.body)) });
        return new Response(JSON.stringify({ id: 41, status: "approved" }), {
          status: 200,
          headers: { "content-type": "application/json" },
        });
      }),
    );
    const decided = vi.fn();
    render(<ClaimsReview claims={[claim]} locale="fr" withEvent onDecided={decided} />);
    const item = within(screen.getByTestId("claims-review")).getByRole("listitem");
    expect(item).toHaveTextContent("Marathon des Canuts");
    expect(item).toHaveTextContent("Nom sur la ligneCOUREUR Six");
    expect(item).toHaveTextContent("Nom du profil du membreCamille Martin");
    expect(item).toHaveTextContent("Temps officiel 2:55:00");
    fireEvent.click(within(item).getByRole("button", { name: "Confirmer que COUREUR Six est Camille Martin" }));
    await waitFor(() => expect(decided).toHaveBeenCalled());
    expect(calls).toEqual([{ url: "/api/results/event/12/claims/41", body: { decision: "approve" } }]);
  });

  it("tells the member where each request stands, in words", () => {
    const mine: MemberClaim[] = [
      { ...claim, status: "pending", decidedAt: null },
      { ...claim, id: 42, status: "refused", decidedAt: "2026-05-22T10:00:00.000Z" },
    ];
    render(<MyClaims claims={mine} locale="fr" onWithdraw={() => {}} />);
    const [waiting, refused] = within(screen.getByTestId("my-claims")).getAllByRole("listitem");
    expect(waiting).toHaveTextContent("En attente de l’organisateur");
    expect(within(waiting as HTMLElement).getByRole("button", { name: "Annuler ma demande" })).toBeInTheDocument();
    expect(refused).toHaveTextContent("Refusée par l’organisateur le 22/05/26");
  });
});
