import { describe, expect, it } from "vitest";
import {
  Calendar,
  DateField,
  DateRangePicker,
  DEFAULT_MAX_HOURS,
  DEFAULT_MIN_DATE,
  Dialog,
  DurationInput,
  FieldFrame,
  FieldLabel,
  MAX_YEAR,
  notify,
  SELECT_COLOR_CLASSES,
  SegmentedField,
  Select,
  TextField,
  TOAST_DEFAULTS,
  ToastHost,
  useApiForm,
  useToast,
} from "./index.ts";

describe("shared/ui index", () => {
  it("re-exports every component and entry point", () => {
    const entries = {
      Select,
      DateRangePicker,
      Calendar,
      DurationInput,
      DateField,
      SegmentedField,
      FieldLabel,
      ToastHost,
      notify,
      useToast,
      Dialog,
      FieldFrame,
      TextField,
      useApiForm,
    };
    for (const [name, entry] of Object.entries(entries)) expect(typeof entry, name).toBe("function");
    expect(TOAST_DEFAULTS.autoClose).toBe(4000);
    expect(DEFAULT_MIN_DATE).toBe("2017-01-01");
    expect(DEFAULT_MAX_HOURS).toBe(999);
    expect(MAX_YEAR).toBe(275760);
    expect(Object.keys(SELECT_COLOR_CLASSES)).toHaveLength(17);
  });
});
