import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createI18n } from "../../../shared/i18n/index.ts";
import { ViewerProvider } from "../../identity/components/viewer.tsx";
import type { SessionUser } from "../../identity/identity.contract.ts";
import type { CourseResults, ResultRow } from "../results.contract.ts";
import ResultsBrowser from "./ResultsBrowser.tsx";

afterEach(() => vi.unstubAllGlobals());

function stubFetch(body: unknown) {
  vi.stubGlobal(
    "fetch",
    vi.fn(
      async () => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } }),
    ),
  );
}

const line = (id: number, rank: number, gun: number, net: number | null, name: string): ResultRow => ({
  id,
  rank,
  sexRank: rank,
  categoryRank: null,
  bib: String(id),
  name,
  club: null,
  sex: "M",
  country: null,
  category: "SEH",
  timeMs: gun * 1000,
  netTimeMs: net === null ? null : net * 1000,
  paceSPerKm: Math.round(gun / 5),
  status: "finished",
  source: "import",
  claimed: false,
  memberSlug: null,
});

/** The audit's 5 km: 17:41, then 20:53 ahead of 21:23 by the gun, whose chip time (20:40) is lower. */
const answer: CourseResults = {
  courseId: 7,
  eventId: 3,
  distance: 5_000,
  course: { name: "Les Foulées", distance: 5_000, date: "2026-03-15" },
  timeBasis: "official",
  manualOnly: false,
  type: "general",
  category: null,
  page: 1,
  pageSize: 50,
  matching: 3,
  totals: { entries: 3, finished: 3, dnf: 0, dns: 0, dsq: 0, men: 3, women: 0 },
  categories: ["SEH"],
  rows: [line(1, 1, 1061, 1059, "ROUX Hugo"), line(2, 2, 1253, 1250, "PETIT Louis"), line(3, 3, 1283, 1240, "ROY Tom")],
};

const courses = [{ courseId: 7, name: "5 km", entries: 3, finished: 3 }];

describe("a course's results table", () => {
  it("shows the time the ranking follows, names it, gives the chip time second, and reads the pace from it", async () => {
    stubFetch(answer);
    render(<ResultsBrowser courses={courses} locale="fr" />);
    const table = await screen.findByTestId("results-table");
    const rows = within(table).getAllByTestId("result-row");
    // Ranked 2nd and 3rd by the gun: 20:53 before 21:23, never 20:40 shown as the 3rd's time.
    expect(rows[1]).toHaveTextContent("20:53");
    expect(rows[2]).toHaveTextContent(/21:23\s*net 20:40/);
    // 21:23 over 5 km: 4:17 per km; 17:41, 3:32.
    expect(rows[2]).toHaveTextContent("4:17");
    expect(rows[0]).toHaveTextContent("3:32");
    expect(within(table).getByRole("columnheader", { name: "Temps officiel" })).toBeInTheDocument();
    expect(within(table).getByTestId("results-course")).toHaveTextContent("Les Foulées · 5 km · 15/03/26");
  });

  it("names a chip-time ranking in English, with the official time second", async () => {
    stubFetch({ ...answer, timeBasis: "net" });
    render(
      <I18nextProvider i18n={createI18n("en")}>
        <ResultsBrowser courses={courses} locale="en" />
      </I18nextProvider>,
    );
    const table = await screen.findByTestId("results-table");
    expect(within(table).getByTestId("results-course")).toHaveTextContent("Les Foulées · 5 km · 26-03-15");
    expect(within(table).getByRole("columnheader", { name: "Net (chip) time" })).toBeInTheDocument();
    expect(within(table).getAllByTestId("result-row")[2]).toHaveTextContent(/20:40\s*official 21:23/);
  });
});

const camille: SessionUser = {
  id: 9,
  displayName: "Camille Roux",
  slug: "camille-roux",
  role: "member",
  emailStatus: "verified",
  photoUrl: null,
  firstName: "Camille",
  locale: "fr",
};

/** The API as a member sees it: the results (their name on the 1st line), then their claim's answer. */
function stubMemberApi(claimStatus: "confirmed" | "pending") {
  const calls: { url: string; method: string }[] = [];
  const rows = answer.rows.map((row) => ({ ...row, couldBeYou: row.id === 1 }));
  const results = { ...answer, rows, mine: null, pending: null, suggestions: [rows[0]] };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? "GET";
      calls.push({ url, method });
      const body = method === "POST" ? { id: 3, courseId: 7, status: claimStatus } : results;
      return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
    }),
  );
  return calls;
}

function renderAsMember() {
  return render(
    <ViewerProvider user={camille} memberShell={false}>
      <ResultsBrowser courses={courses} locale="fr" />
    </ViewerProvider>,
  );
}

describe("claiming a line", () => {
  it("offers the lines bearing the member's name, not every line, and a search for the others", async () => {
    stubMemberApi("confirmed");
    renderAsMember();
    const table = await screen.findByTestId("results-table");
    // Only the line whose name is the member's has "C'est moi" in the table; the panel offers it too.
    expect(within(table).getAllByRole("button", { name: /^C’est moi/ })).toHaveLength(1);
    const panel = screen.getByTestId("claim-panel");
    expect(within(panel).getByText("Est-ce vous ?")).toBeInTheDocument();
    fireEvent.click(within(panel).getByRole("button", { name: "Ce n’est pas vous ? Cherchez votre nom" }));
    expect(document.activeElement).toBe(screen.getByLabelText("Rechercher un nom ou un dossard"));
  });

  it("asks before claiming a line of another name, says it goes to the organiser, then offers to withdraw", async () => {
    const calls = stubMemberApi("pending");
    renderAsMember();
    await screen.findByTestId("results-table");
    // After a search every unclaimed line can be claimed.
    fireEvent.change(screen.getByLabelText("Rechercher un nom ou un dossard"), { target: { value: "roy" } });
    fireEvent.click(screen.getByRole("button", { name: "Rechercher" }));
    const button = await screen.findByRole("button", { name: "C’est moi : ROY Tom est mon résultat" });
    fireEvent.click(button);
    const dialog = await screen.findByTestId("claim-dialog");
    expect(dialog).toHaveTextContent("Le nom de cette ligne (ROY Tom) n’est pas celui de votre profil (Camille Roux)");
    expect(dialog).toHaveTextContent("21:23");
    expect(calls.some((c) => c.method === "POST")).toBe(false);
    fireEvent.click(within(dialog).getByRole("button", { name: "Envoyer la demande" }));
    await waitFor(() => expect(calls).toContainEqual({ url: "/api/results/3/claim", method: "POST" }));
    const status = await screen.findByRole("status");
    expect(status).toHaveTextContent("Demande envoyée");
    expect(within(status).getByRole("button", { name: "Annuler ma demande" })).toBeInTheDocument();
  });
});
