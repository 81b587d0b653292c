import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AdminWelcome } from "./AdminWelcome.tsx";

describe("the admin's welcome after installation", () => {
  it("explains the demo data and lists the settings left, with what each is for", () => {
    render(
      <AdminWelcome
        setup={{
          demoEvents: 7000,
          missingLegal: [
            { field: "publisher", setting: "LEGAL_PUBLISHER" },
            { field: "host", setting: "LEGAL_HOST" },
          ],
          mailOutbox: true,
        }}
      />,
    );
    const welcome = screen.getByTestId("admin-welcome");
    expect(welcome.hasAttribute("open")).toBe(true);
    expect(welcome.textContent).toMatch(/catalogue de démonstration \(7\s000 courses générées/);
    expect(welcome.textContent).toContain("DEMO_EVENTS=0");
    const items = within(welcome)
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(items).toEqual([
      "LEGAL_PUBLISHER — l'éditeur du site (nom ou raison sociale)",
      "LEGAL_HOST — l'hébergeur du site",
    ]);
    expect(welcome.textContent).toContain("SMTP_URL");
  });

  it("says nothing once everything is set", () => {
    const { container } = render(<AdminWelcome setup={{ demoEvents: 0, missingLegal: [], mailOutbox: false }} />);
    expect(container.textContent).toBe("");
  });
});
