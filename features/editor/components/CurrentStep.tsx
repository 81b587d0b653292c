import type { EditableEvent } from "../editor.contract.ts";
import { CommunicationStep } from "./CommunicationStep.tsx";
import { CoursesStep } from "./CoursesStep.tsx";
import type { EventDraft, Step } from "./form-model.ts";
import { InfoStep } from "./InfoStep.tsx";
import { type Visuals, VisualsStep } from "./VisualsStep.tsx";
import type { FieldErrors } from "./validate.ts";

/** The fields of the step on show: information, communication, courses or visuals. */
export function CurrentStep({
  step,
  draft,
  errors,
  update,
  locale,
  countries,
  revision,
  requestFocus,
  meta,
  canEditVisuals,
  visuals,
  setVisuals,
}: {
  step: Step;
  draft: EventDraft;
  errors: FieldErrors;
  update: (patch: Partial<EventDraft>) => void;
  locale: "fr" | "en";
  countries: readonly { code: string; name: string }[];
  revision: number;
  requestFocus: (path: string) => void;
  meta: Pick<EditableEvent, "id" | "name"> | null;
  canEditVisuals: boolean;
  visuals: Visuals;
  setVisuals: (visuals: Visuals) => void;
}) {
  return step === "info" ? (
    <InfoStep draft={draft} errors={errors} update={update} locale={locale} countries={countries} revision={revision} />
  ) : step === "communication" ? (
    <CommunicationStep draft={draft} errors={errors} update={update} />
  ) : step === "courses" ? (
    <CoursesStep draft={draft} errors={errors} update={update} locale={locale} focusField={requestFocus} />
  ) : (
    <VisualsStep
      eventId={meta?.id ?? null}
      canEdit={canEditVisuals}
      visuals={visuals}
      onChange={setVisuals}
      eventName={draft.name || meta?.name || ""}
    />
  );
}
