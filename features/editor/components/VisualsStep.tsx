import { ArrowDown, ArrowLeftRight, ArrowUp, ImagePlus, Lock, Trash2 } from "lucide-react";
import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiFetch } from "../../../shared/api-client.ts";
import { FieldError } from "../../../shared/ui/fields.tsx";
import { CARD_CLASS, LINK_BUTTON } from "./controls.tsx";
import { errorMessageOf, uploadWithProgress } from "./upload.ts";

export type GalleryItem = { id: number; url: string; previewUrl?: string };
export type Visuals = { coverImage: string | null; headerImage: string | null; gallery: GalleryItem[] };
type Kind = "cover" | "header" | "gallery";

type Props = {
  /** Null until the event is saved: visuals come after (spec §5). */
  eventId: number | null;
  /** Whether the member may change the visuals (owner, organiser, admin). */
  canEdit: boolean;
  visuals: Visuals;
  onChange: (visuals: Visuals) => void;
  eventName: string;
};

type Answer = { coverImage: string | null; headerImage: string | null; gallery: GalleryItem[] };

const toVisuals = (answer: Answer): Visuals => ({
  coverImage: answer.coverImage,
  headerImage: answer.headerImage,
  gallery: answer.gallery.map((g) => ({ id: g.id, url: g.url, previewUrl: g.previewUrl ?? g.url })),
});

/** Step 4: the cover (flyer), the header photo and the gallery, once the event is saved. */
export function VisualsStep({ eventId, canEdit, visuals, onChange, eventName }: Props) {
  const { t } = useTranslation("editor");
  const [status, setStatus] = useState("");
  const [error, setError] = useState<string | undefined>();

  if (eventId === null || !canEdit) {
    return (
      <div className={`${CARD_CLASS} flex items-start gap-3`} data-testid="visuals-locked">
        <Lock className="mt-0.5 h-5 w-5 shrink-0 text-ink-700" aria-hidden="true" />
        <div>
          <p className="font-semibold text-ink-900">{t("visuals.lockedTitle")}</p>
          <p className="mt-1 text-ink-700 text-sm">
            {eventId === null ? t("visuals.locked") : t("visuals.lockedMember")}
          </p>
        </div>
      </div>
    );
  }

  const call = async (method: "POST" | "DELETE", url: string, body: unknown, done: string) => {
    setError(undefined);
    const response = await apiFetch(url, { method, body: JSON.stringify(body) }).catch(() => null);
    if (!response?.ok) {
      setError((response && (await errorMessageOf(response))) ?? t("common:errors.generic"));
      return;
    }
    onChange(toVisuals((await response.json()) as Answer));
    setStatus(done);
  };

  const uploaded = (answer: Answer, done: string) => {
    setError(undefined);
    onChange(toVisuals(answer));
    setStatus(done);
  };

  const swap = () =>
    call("POST", "/api/event/switch-image", { eventId, from: { kind: "cover" }, to: "header" }, t("visuals.swapped"));
  const move = (index: number, step: -1 | 1) => {
    const order = visuals.gallery.map((g) => g.id);
    const target = index + step;
    if (target < 0 || target >= order.length) return;
    [order[index], order[target]] = [order[target] as number, order[index] as number];
    return call("POST", "/api/event/switch-image", { eventId, order }, t("visuals.moved", { n: target + 1 }));
  };

  return (
    <div className="space-y-6">
      <div className="grid gap-6 md:grid-cols-2">
        <Slot
          kind="cover"
          eventId={eventId}
          title={t("visuals.cover")}
          hint={t("visuals.coverHint")}
          url={visuals.coverImage}
          alt={t("visuals.coverAlt", { name: eventName })}
          onUploaded={(answer) => uploaded(answer, t("visuals.uploaded"))}
          onError={setError}
          onRemove={() => call("DELETE", "/api/upload/file", { eventId, kind: "cover" }, t("visuals.removed"))}
        />
        <Slot
          kind="header"
          eventId={eventId}
          title={t("visuals.header")}
          hint={t("visuals.headerHint")}
          url={visuals.headerImage}
          alt={t("visuals.headerAlt", { name: eventName })}
          onUploaded={(answer) => uploaded(answer, t("visuals.uploaded"))}
          onError={setError}
          onRemove={() => call("DELETE", "/api/upload/file", { eventId, kind: "header" }, t("visuals.removed"))}
        />
      </div>
      {visuals.coverImage && visuals.headerImage ? (
        <button type="button" className={LINK_BUTTON} onClick={swap}>
          <ArrowLeftRight className="h-4 w-4" aria-hidden="true" />
          {t("visuals.swap")}
        </button>
      ) : null}

      <section className={`${CARD_CLASS} space-y-4`} aria-labelledby="ef-gallery-heading">
        <h3 id="ef-gallery-heading" className="font-bold text-ink-900 text-lg">
          {t("visuals.gallery")}
        </h3>
        <p className="text-ink-700 text-sm">{t("visuals.galleryHint")}</p>
        {visuals.gallery.length ? (
          <ol className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {visuals.gallery.map((image, index) => (
              <li
                key={image.id}
                className="overflow-hidden rounded-lg border border-slate-200"
                data-testid="gallery-item"
              >
                <img
                  src={image.previewUrl ?? image.url}
                  alt={t("visuals.galleryAlt", { n: index + 1, name: eventName })}
                  className="aspect-[4/3] w-full bg-slate-100 object-cover"
                  loading="lazy"
                />
                <div className="flex flex-wrap gap-1 p-2">
                  <button
                    type="button"
                    className={LINK_BUTTON}
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                    aria-label={t("visuals.moveUp", { n: index + 1 })}
                  >
                    <ArrowUp className="h-4 w-4" aria-hidden="true" />
                  </button>
                  <button
                    type="button"
                    className={LINK_BUTTON}
                    disabled={index === visuals.gallery.length - 1}
                    onClick={() => move(index, 1)}
                    aria-label={t("visuals.moveDown", { n: index + 1 })}
                  >
                    <ArrowDown className="h-4 w-4" aria-hidden="true" />
                  </button>
                  <button
                    type="button"
                    className={LINK_BUTTON}
                    onClick={() =>
                      call(
                        "POST",
                        "/api/event/switch-image",
                        { eventId, from: { kind: "gallery", id: image.id }, to: "cover" },
                        t("visuals.madeCover"),
                      )
                    }
                  >
                    {t("visuals.makeCover")}
                  </button>
                  <button
                    type="button"
                    className={LINK_BUTTON}
                    onClick={() =>
                      call(
                        "POST",
                        "/api/event/switch-image",
                        { eventId, from: { kind: "gallery", id: image.id }, to: "header" },
                        t("visuals.madeHeader"),
                      )
                    }
                  >
                    {t("visuals.makeHeader")}
                  </button>
                  <button
                    type="button"
                    className={LINK_BUTTON}
                    onClick={() =>
                      call(
                        "DELETE",
                        "/api/upload/file",
                        { eventId, kind: "gallery", id: image.id },
                        t("visuals.removed"),
                      )
                    }
                    aria-label={t("visuals.removeGallery", { n: index + 1 })}
                  >
                    <Trash2 className="h-4 w-4" aria-hidden="true" />
                  </button>
                </div>
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-ink-500 text-sm">{t("visuals.galleryEmpty")}</p>
        )}
        <UploadButton
          kind="gallery"
          eventId={eventId}
          label={t("visuals.addGallery")}
          onUploaded={(answer) => uploaded(answer, t("visuals.uploaded"))}
          onError={setError}
        />
      </section>
      <FieldError id="ef-visuals-error" message={error} />
      <p className="sr-only" aria-live="polite">
        {status}
      </p>
    </div>
  );
}

type SlotProps = {
  kind: "cover" | "header";
  eventId: number;
  title: string;
  hint: string;
  url: string | null;
  alt: string;
  onUploaded: (answer: Answer) => void;
  onError: (message: string) => void;
  onRemove: () => void;
};

function Slot({ kind, eventId, title, hint, url, alt, onUploaded, onError, onRemove }: SlotProps) {
  const { t } = useTranslation("editor");
  return (
    <section className={`${CARD_CLASS} space-y-3`} aria-label={title} data-testid={`slot-${kind}`}>
      <h3 className="font-bold text-ink-900 text-lg">{title}</h3>
      <p className="text-ink-700 text-sm">{hint}</p>
      {url ? (
        <img
          src={url}
          alt={alt}
          className={`w-full rounded-lg bg-slate-100 object-cover ${kind === "cover" ? "aspect-[3/4] max-h-80 object-contain" : "aspect-[16/7]"}`}
        />
      ) : (
        <div
          className={`flex w-full items-center justify-center rounded-lg border-2 border-slate-300 border-dashed bg-slate-50 text-ink-500 text-sm ${kind === "cover" ? "aspect-[3/4] max-h-80" : "aspect-[16/7]"}`}
        >
          {t("visuals.none")}
        </div>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <UploadButton
          kind={kind}
          eventId={eventId}
          label={url ? t("visuals.replace", { slot: title }) : t("visuals.add", { slot: title })}
          onUploaded={onUploaded}
          onError={onError}
        />
        {url ? (
          <button type="button" className={LINK_BUTTON} onClick={onRemove}>
            <Trash2 className="h-4 w-4" aria-hidden="true" />
            {t("visuals.remove", { slot: title })}
          </button>
        ) : null}
      </div>
    </section>
  );
}

function UploadButton({
  kind,
  eventId,
  label,
  onUploaded,
  onError,
}: {
  kind: Kind;
  eventId: number;
  label: string;
  onUploaded: (answer: Answer) => void;
  onError: (message: string) => void;
}) {
  const { t } = useTranslation("editor");
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const upload = async (file: File) => {
    setProgress(0);
    const form = new FormData();
    form.append("eventId", String(eventId));
    form.append("kind", kind);
    form.append("file", file);
    const result = await uploadWithProgress<Answer>("/api/upload/event-photo", form, setProgress);
    setProgress(null);
    if (input.current) input.current.value = "";
    if (result.ok) onUploaded(result.body);
    else onError(result.message ?? t("common:errors.generic"));
  };
  return (
    <div className="w-full sm:w-auto">
      <label
        htmlFor={id}
        className="inline-flex cursor-pointer items-center gap-2 rounded-lg border border-slate-400 border-dashed bg-white px-4 py-2.5 font-semibold text-ink-900 text-sm hover:bg-slate-50 has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-700"
      >
        <ImagePlus className="h-4 w-4" aria-hidden="true" />
        {label}
        <input
          ref={input}
          id={id}
          type="file"
          accept="image/jpeg,image/png,image/webp,image/avif"
          className="sr-only"
          disabled={progress !== null}
          data-testid={`upload-${kind}`}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void upload(file);
          }}
        />
      </label>
      {progress !== null ? (
        <div className="mt-2">
          <progress
            className="h-2 w-full accent-brand-700"
            max={1}
            value={progress}
            aria-label={t("visuals.progress")}
          />
          <p className="text-ink-700 text-sm">{t("gpx.percent", { percent: Math.round(progress * 100) })}</p>
        </div>
      ) : null}
      <p className="mt-1 text-ink-500 text-xs">{t("visuals.formats")}</p>
    </div>
  );
}
