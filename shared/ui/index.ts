/** The UI kit: design-system primitives with no domain knowledge. See README.md beside this file. */

export { Calendar, type CalendarProps, type CalendarView, calendarLocaleFor, calendarTypeFor } from "./Calendar.tsx";
export { cx } from "./cx.ts";
export { DateField, type DateFieldProps } from "./DateField.tsx";
export { DateRangePicker, type DateRangePickerProps } from "./DateRangePicker.tsx";
export { Dialog } from "./Dialog.tsx";
export { DurationInput, type DurationInputProps } from "./DurationInput.tsx";
export {
  DATE_PART_MAX_LENGTH,
  DATE_PARTS,
  type DateEvaluation,
  type DatePart,
  type DateTexts,
  daysInMonth,
  evaluateDate,
  isLeapYear,
  isoFromParts,
  MAX_YEAR,
  MIN_YEAR,
  partsFromIso,
} from "./date-parts.ts";
export {
  clampRange,
  type DateRange,
  type DateRangeOutput,
  type DateRangeValue,
  DEFAULT_MIN_DATE,
  dateBounds,
  FUTURE_YEARS,
  formatShortDate,
  matchingQuickRange,
  parseIsoDate,
  parseRangeValue,
  quickRange,
  resolvedQuickRange,
  sameRange,
  shortRangeParts,
  toIsoDate,
  toRangeOutput,
  visibleQuickRanges,
} from "./date-range.ts";
export {
  DEFAULT_MAX_HOURS,
  DURATION_PARTS,
  type DurationPart,
  type DurationTexts,
  formatDuration,
  isPartValid,
  PART_MAX_LENGTH,
  parseDuration,
  partMax,
  partsToSeconds,
  secondsToParts,
} from "./duration.ts";
export { FIELD_LABEL_CLASS, FieldLabel, type FieldLabelProps } from "./FieldLabel.tsx";
export {
  CheckboxField,
  type ControlProps,
  DANGER_BUTTON,
  EmailField,
  type FieldBinding,
  FieldError,
  FieldFrame,
  FormError,
  FormFooter,
  HINT_CLASS,
  INPUT_CLASS,
  LABEL_CLASS,
  PRIMARY_BUTTON,
  SECONDARY_BUTTON,
  SelectField,
  SubmitButton,
  TextAreaField,
  TextField,
} from "./fields.tsx";
export {
  apiErrorsOf,
  emptyBody,
  type FormMessages,
  type FormResult,
  formFieldName,
  parseForm,
  reply,
} from "./form/submission.ts";
export { type ApiFormOptions, useApiForm } from "./form/use-api-form.ts";
export {
  type FieldHint,
  type Segment,
  SegmentedField,
  type SegmentedFieldFrameProps,
  type SegmentedFieldProps,
} from "./SegmentedField.tsx";
export {
  assignLocation,
  type MultipleSelectProps,
  Select,
  type SelectProps,
  type SingleSelectProps,
} from "./Select.tsx";
export { SELECT_COLOR_CLASSES, type SelectColorClasses } from "./select-colors.ts";
export {
  filterOptions,
  nextEnabledIndex,
  normalizeText,
  type OptionValue,
  optionsForParent,
  type SelectOption,
  sameValue,
  toggleValue,
  valueList,
} from "./select-options.ts";
export {
  notify,
  TOAST_DEFAULTS,
  TOAST_ICONS,
  ToastHost,
  type ToastType,
  toastIdFor,
  useToast,
} from "./Toasts.tsx";
