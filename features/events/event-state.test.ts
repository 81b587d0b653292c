import { describe, expect, it } from "vitest";
import { eventState } from "./event-state.ts";

const TODAY = "2026-06-01";
const at = (startDate: string, endDate: string, flags: { cancelled?: boolean; postponed?: boolean } = {}) =>
  eventState({ cancelled: false, postponed: false, ...flags, startDate, endDate }, TODAY);

describe("eventState", () => {
  it("follows the dates: upcoming, in progress on its days, finished after its last day", () => {
    expect(at("2026-06-02", "2026-06-02")).toBe("upcoming");
    expect(at("2026-06-01", "2026-06-01")).toBe("in_progress");
    expect(at("2026-05-31", "2026-06-01")).toBe("in_progress");
    expect(at("2026-05-31", "2026-05-31")).toBe("finished");
  });

  it("shows a postponed race as postponed until its new date, then in progress and finished", () => {
    const postponed = { postponed: true };
    expect(at("2026-07-12", "2026-07-12", postponed)).toBe("postponed");
    expect(at("2026-06-01", "2026-06-02", postponed)).toBe("in_progress");
    expect(at("2026-04-12", "2026-04-12", postponed)).toBe("finished");
  });

  it("keeps a cancelled race cancelled, before and after its date", () => {
    expect(at("2026-07-12", "2026-07-12", { cancelled: true })).toBe("cancelled");
    expect(at("2026-04-12", "2026-04-12", { cancelled: true, postponed: true })).toBe("cancelled");
  });
});
