/** What changed between two versions of the four-step form: for history entries and modification requests. */
import { type CourseForm, type EventForm, eventCommunicationSchema, eventInfoSchema } from "./editor.contract.ts";

/** Fields compared for history and request diffs (courses are compared as a whole). */
const EVENT_FIELDS = [
  ...Object.keys(eventInfoSchema.shape).filter((field) => field !== "certified"),
  ...Object.keys(eventCommunicationSchema.shape),
  "courses",
] as (keyof EventForm)[];

export type FieldChange = { field: string; before: unknown; after: unknown };

export function diffForms(before: Partial<EventForm>, after: Partial<EventForm>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of EVENT_FIELDS) {
    const a = normalise(field === "courses" ? stripIds(before.courses) : before[field]);
    const b = normalise(field === "courses" ? stripIds(after.courses) : after[field]);
    if (JSON.stringify(a) !== JSON.stringify(b)) changes.push({ field, before: a, after: b });
  }
  return changes;
}

function stripIds(list: readonly CourseForm[] | undefined) {
  return (list ?? []).map(({ id: _id, trackId: _track, ...course }) => course);
}

function normalise(value: unknown): unknown {
  if (value === undefined || value === "") return null;
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === "object") {
    // An absent field and an empty one are the same to a reader of the diff.
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, normalise(v)])
        .filter(([, v]) => v !== null),
    );
  }
  return value;
}
