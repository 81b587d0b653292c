import { describe, expect, it } from "vitest";
import * as ui from "./index.ts";

describe("app/ui index", () => {
  it("re-exports every component and entry point", () => {
    for (const name of [
      "Select",
      "DateRangePicker",
      "Calendar",
      "DurationInput",
      "DateField",
      "ToastHost",
      "notify",
      "useToast",
    ] as const) {
      expect(typeof ui[name], name).toBe("function");
    }
    expect(ui.TOAST_DEFAULTS.autoClose).toBe(4000);
    expect(ui.DEFAULT_MIN_DATE).toBe("2017-01-01");
    expect(ui.DEFAULT_MAX_HOURS).toBe(999);
    expect(ui.MAX_YEAR).toBe(275760);
    expect(Object.keys(ui.SELECT_COLOR_CLASSES)).toHaveLength(17);
  });
});
