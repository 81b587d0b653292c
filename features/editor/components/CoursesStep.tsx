import { Plus } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { CourseCard } from "./CourseCard.tsx";
import { type CourseDraft, duplicateCourse, type EventDraft, emptyCourse } from "./form-model.ts";
import { courseMissing } from "./validate.ts";

type Props = {
  draft: EventDraft;
  errors: Record<string, string>;
  update: (patch: Partial<EventDraft>) => void;
  locale: "fr" | "en";
  /** Moves the focus to a course's first field once it is rendered. */
  focusField: (path: string) => void;
};

/** Step 3: the courses, as cards to add, duplicate and remove (never the last one). */
export function CoursesStep({ draft, errors, update, locale, focusField }: Props) {
  const { t } = useTranslation("editor");
  const [announce, setAnnounce] = useState("");
  const courses = draft.courses;
  const setCourses = (next: CourseDraft[]) => update({ courses: next });

  const add = () => {
    setCourses([...courses, emptyCourse(draft.startDate)]);
    setAnnounce(t("courses.added", { n: courses.length + 1 }));
    focusField(`courses.${courses.length}.name`);
  };

  return (
    <div className="space-y-6">
      <p className="text-ink-700">{t("courses.intro")}</p>
      {errors.courses ? (
        <p className="text-red-800 text-sm" role="alert">
          {errors.courses}
        </p>
      ) : null}
      {courses.map((course, index) => (
        <CourseCard
          key={course.key}
          course={course}
          index={index}
          event={draft}
          errors={errors}
          missing={courseMissing(course, index, draft, t, locale)}
          locale={locale}
          onlyOne={courses.length <= 1}
          onChange={(patch) => setCourses(courses.map((c, i) => (i === index ? { ...c, ...patch } : c)))}
          onDuplicate={() => {
            const copy = duplicateCourse(course, (name) => (name ? t("courses.copyName", { name }) : ""));
            setCourses([...courses.slice(0, index + 1), copy, ...courses.slice(index + 1)]);
            setAnnounce(t("courses.duplicated", { name: course.name || t("courses.untitled") }));
            focusField(`courses.${index + 1}.name`);
          }}
          onRemove={() => {
            if (courses.length <= 1) return;
            setCourses(courses.filter((_, i) => i !== index));
            setAnnounce(
              course.id
                ? t("courses.removedSaved", { name: course.name || t("courses.untitled") })
                : t("courses.removed", { name: course.name || t("courses.untitled") }),
            );
            focusField(`courses.${Math.max(0, index - 1)}.name`);
          }}
        />
      ))}
      <button type="button" className={SECONDARY_BUTTON} onClick={add}>
        <Plus className="h-4 w-4" aria-hidden="true" />
        {t("courses.add")}
      </button>
      <p className="sr-only" aria-live="polite">
        {announce}
      </p>
    </div>
  );
}
