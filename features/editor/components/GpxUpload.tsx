import { FileUp, Route as RouteIcon, Trash2, Wand2 } from "lucide-react";
import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiFetch } from "../../../shared/api-client.ts";
import { formatDistance, formatElevation } from "../../../shared/format.ts";
import { FieldError, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { LINK_BUTTON } from "./controls.tsx";
import type { TrackInfo } from "./form-model.ts";
import { errorMessageOf, uploadWithProgress } from "./upload.ts";

type UploadAnswer = {
  track?: { id?: number; name?: string | null; distance?: number | null; elevationGain?: number | null };
  suggestions?: { distance?: number | null; elevationGain?: number | null };
};

type Props = {
  courseId?: number;
  courseName: string;
  trackId: number | null;
  track: TrackInfo | null;
  /** The course's figures as the form holds them (metres; null when empty): the track's are offered where they differ. */
  current: { distance: number | null; elevationGain: number | null };
  locale: "fr" | "en";
  /** A new track; returns whether its figures filled empty fields. */
  onUploaded: (track: TrackInfo) => boolean;
  onUse: (values: { distance?: number; elevationGain?: number }) => void;
  onRemoved: () => void;
};

/**
 * A course's GPX track: upload with a progress bar (POST /api/upload/track/{courseId|0}), the
 * distance and D+ computed from it (they fill the course's empty fields, and each is offered where
 * it differs from what the organiser typed), and removal (DELETE /api/track/{id}).
 */
export function GpxUpload({
  courseId,
  courseName,
  trackId,
  track,
  current,
  locale,
  onUploaded,
  onUse,
  onRemoved,
}: Props) {
  const { t } = useTranslation("editor");
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [status, setStatus] = useState("");

  const upload = async (file: File) => {
    setError(undefined);
    setProgress(0);
    setStatus(t("gpx.uploading", { file: file.name }));
    const form = new FormData();
    form.append("file", file);
    const result = await uploadWithProgress<UploadAnswer>(`/api/upload/track/${courseId ?? 0}`, form, setProgress);
    setProgress(null);
    if (input.current) input.current.value = "";
    if (!result.ok || !result.body?.track?.id) {
      const message = result.ok ? t("common:errors.generic") : (result.message ?? t("common:errors.generic"));
      setError(message);
      setStatus(message);
      return;
    }
    const info: TrackInfo = {
      id: result.body.track.id,
      name: result.body.track.name ?? file.name,
      distance: result.body.suggestions?.distance ?? result.body.track.distance ?? null,
      elevationGain: result.body.suggestions?.elevationGain ?? result.body.track.elevationGain ?? null,
    };
    setStatus(onUploaded(info) ? t("gpx.doneFilled") : t("gpx.done"));
  };

  const remove = async () => {
    if (!trackId) return;
    setError(undefined);
    const response = await apiFetch(`/api/track/${trackId}`, { method: "DELETE" }).catch(() => null);
    // A track never attached (or already gone) only leaves the form.
    if (response && !response.ok && response.status !== 404) {
      setError((await errorMessageOf(response)) ?? t("common:errors.generic"));
      return;
    }
    onRemoved();
    setStatus(t("gpx.removed"));
  };

  const km = (metres: number) => formatDistance(metres, locale, { maximumFractionDigits: 1 });
  // Offered where the track's figure differs from the form's, as each is shown (km to 0.1, D+ to the metre).
  const offerDistance =
    track?.distance != null && (current.distance === null || km(current.distance) !== km(track.distance))
      ? track.distance
      : null;
  const offerGain =
    track?.elevationGain != null && current.elevationGain !== Math.round(track.elevationGain)
      ? track.elevationGain
      : null;
  const summary = track
    ? [
        track.distance !== null ? formatDistance(track.distance, locale, { maximumFractionDigits: 1 }) : null,
        track.elevationGain !== null ? formatElevation(track.elevationGain, locale) : null,
      ]
        .filter(Boolean)
        .join(" · ")
    : "";

  return (
    <div className="space-y-2">
      <p className="font-semibold text-ink-900">{t("gpx.heading")}</p>
      {trackId ? (
        <div className="rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm" data-testid="gpx-track">
          <p className="flex items-center gap-2 font-medium text-emerald-950">
            <RouteIcon className="h-4 w-4 shrink-0" aria-hidden="true" />
            {track?.name ? t("gpx.attachedNamed", { name: track.name }) : t("gpx.attached")}
          </p>
          {summary ? <p className="mt-1 text-emerald-950">{t("gpx.computed", { summary })}</p> : null}
          <div className="mt-2 flex flex-wrap gap-2">
            {offerDistance !== null ? (
              <button
                type="button"
                className={SECONDARY_BUTTON}
                data-testid="gpx-offer-distance"
                onClick={() => {
                  onUse({ distance: offerDistance });
                  setStatus(t("gpx.usedDistance", { distance: km(offerDistance) }));
                }}
              >
                <Wand2 className="h-4 w-4" aria-hidden="true" />
                {t("gpx.offerDistance", { distance: km(offerDistance) })}
              </button>
            ) : null}
            {offerGain !== null ? (
              <button
                type="button"
                className={SECONDARY_BUTTON}
                data-testid="gpx-offer-elevation"
                onClick={() => {
                  onUse({ elevationGain: offerGain });
                  setStatus(t("gpx.usedElevation", { gain: formatElevation(offerGain, locale) }));
                }}
              >
                <Wand2 className="h-4 w-4" aria-hidden="true" />
                {t("gpx.offerElevation", { gain: formatElevation(offerGain, locale) })}
              </button>
            ) : null}
            <button type="button" className={LINK_BUTTON} onClick={remove}>
              <Trash2 className="h-4 w-4" aria-hidden="true" />
              {t("gpx.remove", { name: courseName || t("courses.untitled") })}
            </button>
          </div>
        </div>
      ) : null}
      <div>
        <label
          htmlFor={inputId}
          className="inline-flex cursor-pointer items-center gap-2 rounded-lg border border-slate-400 border-dashed bg-white px-4 py-2.5 font-semibold text-ink-900 text-sm hover:bg-slate-50 has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-700"
        >
          <FileUp className="h-4 w-4" aria-hidden="true" />
          {trackId ? t("gpx.replace") : t("gpx.choose")}
          <span className="sr-only"> ({courseName || t("courses.untitled")})</span>
          <input
            ref={input}
            id={inputId}
            type="file"
            accept=".gpx,application/gpx+xml,application/xml,text/xml"
            className="sr-only"
            disabled={progress !== null}
            data-testid="gpx-input"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void upload(file);
            }}
          />
        </label>
        <p className="mt-1 text-ink-500 text-sm">{t("gpx.hint")}</p>
      </div>
      {progress !== null ? (
        <div>
          <progress
            className="h-2 w-full overflow-hidden rounded accent-brand-700"
            max={1}
            value={progress}
            aria-label={t("gpx.progress")}
          />
          <p className="text-ink-700 text-sm">{t("gpx.percent", { percent: Math.round(progress * 100) })}</p>
        </div>
      ) : null}
      <p className="sr-only" aria-live="polite">
        {status}
      </p>
      <FieldError id={`${inputId}-error`} message={error} />
    </div>
  );
}
