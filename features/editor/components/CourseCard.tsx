import { CircleAlert, CircleCheck, Copy, Trash2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { COURSE_TYPES } from "../../../shared/constants.ts";
import { formatDistance, formatDuration, formatElevation, formatMoney } from "../../../shared/format.ts";
import { DateField } from "../../../shared/ui/DateField.tsx";
import { DurationInput } from "../../../shared/ui/DurationInput.tsx";
import { Select } from "../../../shared/ui/Select.tsx";
import {
  BoxError,
  CARD_CLASS,
  FieldBox,
  fieldId,
  HINT_CLASS,
  LINK_BUTTON,
  RadioGroup,
  RequiredMark,
  TextArea,
  TextInput,
} from "./controls.tsx";
import {
  type CourseDraft,
  type EventDraft,
  kmTextToMetres,
  metresToKmText,
  parseCount,
  parseDecimal,
  type TrackInfo,
} from "./form-model.ts";
import { GpxUpload } from "./GpxUpload.tsx";
import { PricePeriods } from "./PricePeriods.tsx";
import type { MissingField } from "./validate.ts";

type Props = {
  course: CourseDraft;
  index: number;
  event: Pick<EventDraft, "startDate" | "endDate">;
  errors: Record<string, string>;
  missing: MissingField[];
  locale: "fr" | "en";
  onlyOne: boolean;
  onChange: (patch: Partial<CourseDraft>) => void;
  onDuplicate: () => void;
  onRemove: () => void;
};

/** "10 km · D+ 350 m · dès 25 €": what the card says about itself when folded in one line. */
function summary(course: CourseDraft, locale: "fr" | "en"): string {
  const parts: string[] = [];
  const metres = kmTextToMetres(course.distance);
  if (course.measure === "distance" && metres && !Number.isNaN(metres)) {
    parts.push(formatDistance(metres, locale, { maximumFractionDigits: 3 }));
  }
  if (course.measure === "duration" && course.duration) parts.push(formatDuration(course.duration, locale));
  const gain = parseCount(course.elevationGain);
  if (gain && !Number.isNaN(gain)) parts.push(formatElevation(gain, locale));
  const prices = course.prices
    .map((p) => parseDecimal(p.price))
    .filter((p): p is number => p !== null && !Number.isNaN(p));
  if (prices.length) parts.push(formatMoney(Math.min(...prices), locale));
  return parts.join(" · ");
}

/** A track's distance as the field takes it: kilometres to the nearest 10 m. */
const kmText = (metres: number, locale: "fr" | "en") => metresToKmText(Math.round(metres / 10) * 10, locale);

/** The distance (metres, when measured by distance) and D+ the form holds; null when empty or unreadable. */
function currentFigures(course: CourseDraft): { distance: number | null; elevationGain: number | null } {
  const metres = course.measure === "distance" ? kmTextToMetres(course.distance) : null;
  const gain = parseCount(course.elevationGain);
  return {
    distance: metres !== null && !Number.isNaN(metres) ? metres : null,
    elevationGain: gain !== null && !Number.isNaN(gain) ? gain : null,
  };
}

/** What a new track fills in: its distance and D+ where the fields are empty (a timed race keeps its duration). */
function trackFills(course: CourseDraft, track: TrackInfo, locale: "fr" | "en"): Partial<CourseDraft> {
  const fill: Partial<CourseDraft> = {};
  if (course.measure === "distance" && !course.distance.trim() && track.distance !== null) {
    fill.distance = kmText(track.distance, locale);
  }
  if (!course.elevationGain.trim() && track.elevationGain !== null) {
    fill.elevationGain = String(Math.round(track.elevationGain));
  }
  return fill;
}

/** One course of the event, as a card of fields with its completeness said in words. */
export function CourseCard({
  course,
  index,
  event,
  errors,
  missing,
  locale,
  onlyOne,
  onChange,
  onDuplicate,
  onRemove,
}: Props) {
  const { t } = useTranslation("editor");
  const base = `courses.${index}`;
  const err = (field: string) => errors[`${base}.${field}`];
  const title = course.name.trim() || t("courses.untitled");
  const headingId = `${fieldId(base)}-heading`;
  const removeHintId = `${fieldId(base)}-remove-hint`;
  const complete = missing.length === 0;
  const line = summary(course, locale);
  const text = (field: keyof CourseDraft) => (value: string) => onChange({ [field]: value } as Partial<CourseDraft>);

  return (
    <article className={`${CARD_CLASS} space-y-5`} aria-labelledby={headingId} data-testid="course-card">
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={headingId} className="font-bold text-ink-900 text-lg">
            {t("courses.cardTitle", { n: index + 1, name: title })}
          </h3>
          {line ? <p className="text-ink-700 text-sm">{line}</p> : null}
        </div>
        <p
          className={`inline-flex items-center gap-1 rounded-full px-2.5 py-1 font-semibold text-xs ring-1 ring-inset ${complete ? "bg-emerald-50 text-emerald-900 ring-emerald-200" : "bg-amber-50 text-amber-950 ring-amber-300"}`}
          data-testid="course-completeness"
        >
          {complete ? (
            <CircleCheck className="h-4 w-4" aria-hidden="true" />
          ) : (
            <CircleAlert className="h-4 w-4" aria-hidden="true" />
          )}
          {complete ? t("courses.complete") : t("courses.incomplete")}
        </p>
      </header>
      {!complete ? (
        <p
          className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950 text-sm"
          data-testid="course-missing"
        >
          {t("courses.missing", {
            fields: missing.map((field) => t(`courses.missingField.${field}`)).join(", "),
          })}
        </p>
      ) : null}

      <div className="grid gap-4 sm:grid-cols-2">
        <TextInput
          path={`${base}.name`}
          label={t("courses.name")}
          placeholder={t("courses.namePlaceholder")}
          value={course.name}
          onChange={text("name")}
          error={err("name")}
          required
          maxLength={120}
        />
        <FieldBox path={`${base}.type`}>
          <Select
            id={fieldId(`${base}.type`)}
            label={t("courses.type")}
            options={COURSE_TYPES.map((type) => ({ value: type, label: t(`event:courses.type.${type}`) }))}
            value={course.type}
            onChange={(type) => onChange({ type: (type ?? "race") as CourseDraft["type"] })}
          />
          <BoxError path={`${base}.type`} error={err("type")} />
        </FieldBox>
      </div>

      <div className="space-y-4">
        <RadioGroup
          path={`${base}.measure`}
          legend={t("courses.measure")}
          value={course.measure}
          options={[
            { value: "distance", label: t("courses.measureDistance") },
            { value: "duration", label: t("courses.measureDuration") },
          ]}
          onChange={(measure) => onChange({ measure })}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          {course.measure === "distance" ? (
            <TextInput
              path={`${base}.distance`}
              label={t("courses.distance")}
              hint={t("courses.distanceHint")}
              value={course.distance}
              onChange={text("distance")}
              error={err("distance")}
              inputMode="decimal"
              suffix="km"
              required
            />
          ) : (
            <FieldBox path={`${base}.duration`}>
              <DurationInput
                id={fieldId(`${base}.duration`)}
                label={
                  <>
                    {t("courses.duration")}
                    <RequiredMark />
                  </>
                }
                value={course.duration}
                onChange={(duration) => onChange({ duration })}
              />
              <p className={HINT_CLASS}>{t("courses.durationHint")}</p>
              <BoxError path={`${base}.duration`} error={err("duration")} />
            </FieldBox>
          )}
          <TextInput
            path={`${base}.elevationGain`}
            label={t("courses.elevationGain")}
            value={course.elevationGain}
            onChange={text("elevationGain")}
            error={err("elevationGain")}
            inputMode="numeric"
            suffix="m"
          />
        </div>
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <FieldBox path={`${base}.date`}>
          <DateField
            id={fieldId(`${base}.date`)}
            label={
              <>
                {t("courses.date")}
                <RequiredMark />
              </>
            }
            value={course.date}
            min="2017-01-01"
            onChange={(date) => onChange({ date })}
          />
          {event.startDate && event.endDate && event.startDate !== event.endDate ? (
            <p className={HINT_CLASS}>{t("courses.dateHint")}</p>
          ) : null}
          <BoxError path={`${base}.date`} error={err("date")} />
        </FieldBox>
        <TextInput
          path={`${base}.startTime`}
          type="time"
          label={t("courses.startTime")}
          value={course.startTime}
          onChange={text("startTime")}
          error={err("startTime")}
        />
      </div>

      <PricePeriods
        base={base}
        courseName={course.name.trim()}
        prices={course.prices}
        onChange={(prices) => onChange({ prices })}
        errors={errors}
      />

      <GpxUpload
        courseId={course.id}
        courseName={course.name.trim()}
        trackId={course.trackId}
        track={course.track}
        current={currentFigures(course)}
        locale={locale}
        onUploaded={(track) => {
          // The track's figures fill the fields left empty; the others are offered beside it.
          const fill = trackFills(course, track, locale);
          onChange({ trackId: track.id, track, ...fill });
          return Object.keys(fill).length > 0;
        }}
        onUse={({ distance, elevationGain }) =>
          onChange({
            ...(distance !== undefined ? { measure: "distance" as const, distance: kmText(distance, locale) } : {}),
            ...(elevationGain !== undefined ? { elevationGain: String(Math.round(elevationGain)) } : {}),
          })
        }
        onRemoved={() => onChange({ trackId: null, track: null })}
      />

      <details className="group rounded-lg border border-slate-200" data-details={base}>
        <summary className="cursor-pointer rounded-lg px-3 py-2 font-semibold text-ink-900 hover:bg-slate-50">
          {t("courses.more")}
        </summary>
        <div className="grid gap-4 p-3 sm:grid-cols-2">
          <TextInput
            path={`${base}.bibQuota`}
            label={t("courses.bibQuota")}
            value={course.bibQuota}
            onChange={text("bibQuota")}
            error={err("bibQuota")}
            inputMode="numeric"
          />
          <TextInput
            path={`${base}.minAge`}
            label={t("courses.minAge")}
            value={course.minAge}
            onChange={text("minAge")}
            error={err("minAge")}
            inputMode="numeric"
          />
          <TextInput
            path={`${base}.startPlace`}
            label={t("courses.startPlace")}
            value={course.startPlace}
            onChange={text("startPlace")}
            error={err("startPlace")}
          />
          <TextInput
            path={`${base}.finishPlace`}
            label={t("courses.finishPlace")}
            value={course.finishPlace}
            onChange={text("finishPlace")}
            error={err("finishPlace")}
          />
          <TextInput
            path={`${base}.refuellingPoints`}
            label={t("courses.refuellingPoints")}
            value={course.refuellingPoints}
            onChange={text("refuellingPoints")}
            error={err("refuellingPoints")}
            inputMode="numeric"
          />
          <TextInput
            path={`${base}.challenge`}
            label={t("courses.challenge")}
            value={course.challenge}
            onChange={text("challenge")}
            error={err("challenge")}
          />
          <TextInput
            path={`${base}.itraPoints`}
            label={t("courses.itraPoints")}
            value={course.itraPoints}
            onChange={text("itraPoints")}
            error={err("itraPoints")}
            inputMode="numeric"
          />
          <TextInput
            path={`${base}.utmbIndex`}
            label={t("courses.utmbIndex")}
            value={course.utmbIndex}
            onChange={text("utmbIndex")}
            error={err("utmbIndex")}
          />
          <TextArea
            path={`${base}.mandatoryEquipment`}
            label={t("courses.mandatoryEquipment")}
            value={course.mandatoryEquipment}
            onChange={text("mandatoryEquipment")}
            error={err("mandatoryEquipment")}
            boxClassName="sm:col-span-2"
          />
          <TextArea
            path={`${base}.description`}
            label={t("courses.description")}
            value={course.description}
            onChange={text("description")}
            error={err("description")}
            boxClassName="sm:col-span-2"
          />
        </div>
      </details>

      <footer className="flex flex-wrap items-center gap-2 border-slate-200 border-t pt-3">
        <button type="button" className={LINK_BUTTON} onClick={onDuplicate}>
          <Copy className="h-4 w-4" aria-hidden="true" />
          {t("courses.duplicate", { name: title })}
        </button>
        <button
          type="button"
          className={LINK_BUTTON}
          onClick={onRemove}
          disabled={onlyOne}
          aria-describedby={onlyOne ? removeHintId : undefined}
        >
          <Trash2 className="h-4 w-4" aria-hidden="true" />
          {t("courses.remove", { name: title })}
        </button>
        {onlyOne ? (
          <p id={removeHintId} className="w-full text-ink-500 text-sm">
            {t("common:errors.cannotDeleteAllCourses")} {t("courses.lastCourse")}
          </p>
        ) : null}
      </footer>
    </article>
  );
}
