import { Star } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { callApi } from "../../../shared/api-client.ts";
import { RATING_CRITERIA, type RatingCriterion } from "../../../shared/constants.ts";
import { cx } from "../../../shared/ui/cx.ts";
import { FormError, PRIMARY_BUTTON, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import type { OwnRating, RatingSummary } from "../ratings.contract.ts";

type Scores = { overall: number | null } & Record<RatingCriterion, number | null>;

/**
 * One score as five radio buttons drawn as stars (arrow keys move between them, as radios do);
 * `optional` adds a "no opinion" choice. Each star says its value to screen readers.
 */
export function StarInput({
  legend,
  hint,
  value,
  onChange,
  optional = false,
  size = "h-7 w-7",
}: {
  legend: string;
  hint?: string;
  value: number | null;
  onChange: (value: number | null) => void;
  optional?: boolean;
  size?: string;
}) {
  const { t } = useTranslation("community");
  const name = useId();
  const [hover, setHover] = useState<number | null>(null);
  const shown = hover ?? value ?? 0;
  return (
    <fieldset className="min-w-0">
      <legend className="font-medium text-ink-900 text-sm">
        {legend}
        {hint && <span className="ml-2 font-normal text-ink-500">{hint}</span>}
      </legend>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: hover preview only; the radios carry the input. */}
      <div className="mt-1 flex flex-wrap items-center gap-1" onMouseLeave={() => setHover(null)}>
        {[1, 2, 3, 4, 5].map((n) => (
          <label
            key={n}
            className="cursor-pointer rounded-md p-0.5 has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-700"
            onMouseEnter={() => setHover(n)}
          >
            <input
              type="radio"
              name={name}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              className="sr-only"
            />
            <Star
              aria-hidden="true"
              className={cx(size, n <= shown ? "fill-amber-400 text-amber-500" : "text-slate-400")}
              strokeWidth={1.5}
            />
            <span className="sr-only">{t("rating.star", { count: n })}</span>
          </label>
        ))}
        {optional && (
          <label className="ml-2 cursor-pointer rounded-md px-2 py-1 text-ink-700 text-sm has-[:checked]:bg-slate-100 has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-700">
            <input
              type="radio"
              name={name}
              value=""
              checked={value === null}
              onChange={() => onChange(null)}
              className="sr-only"
            />
            {t("rating.noScore")}
          </label>
        )}
        <span className="ml-1 text-ink-700 text-sm tabular-nums" aria-hidden="true">
          {value ? `${value}/5` : ""}
        </span>
      </div>
    </fieldset>
  );
}

/** "Rate this race": overall score (required) and the five optional criteria, saved through POST /api/rating. */
export function RatingForm({
  eventId,
  initial,
  onSaved,
  onCancel,
}: {
  eventId: number;
  initial: OwnRating | null;
  onSaved: (summary: RatingSummary) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation("community");
  const [scores, setScores] = useState<Scores>(() => ({
    overall: initial?.overall ?? null,
    course: initial?.course ?? null,
    organisation: initial?.organisation ?? null,
    atmosphere: initial?.atmosphere ?? null,
    value: initial?.value ?? null,
    difficulty: initial?.difficulty ?? null,
  }));
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!scores.overall) {
      setError(t("rating.overallRequired"));
      return;
    }
    setPending(true);
    setError(null);
    const result = await callApi<RatingSummary>("/api/rating", {
      method: "POST",
      body: JSON.stringify({ eventId, ...scores }),
    });
    setPending(false);
    if (result.ok) onSaved(result.data);
    else setError(result.message ?? t("comments.loadError"));
  }

  return (
    <form onSubmit={submit} className="space-y-4" data-testid="rating-form" noValidate>
      <StarInput
        legend={t("rating.overall")}
        hint={t("rating.overallHint")}
        value={scores.overall}
        onChange={(overall) => setScores((s) => ({ ...s, overall }))}
        size="h-9 w-9"
      />
      <div className="grid gap-3 sm:grid-cols-2">
        {RATING_CRITERIA.map((criterion) => (
          <StarInput
            key={criterion}
            legend={t(`rating.criteria.${criterion}`)}
            hint={t("rating.optional")}
            value={scores[criterion]}
            onChange={(value) => setScores((s) => ({ ...s, [criterion]: value }))}
            optional
            size="h-6 w-6"
          />
        ))}
      </div>
      <FormError message={error} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <button type="button" className={SECONDARY_BUTTON} onClick={onCancel}>
          {t("rating.cancel")}
        </button>
        <button type="submit" className={PRIMARY_BUTTON} disabled={pending}>
          {t("rating.save")}
        </button>
      </div>
    </form>
  );
}
