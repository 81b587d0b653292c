/**
 * The poster creator: the design object edited by the controls and drawn by the one renderer on
 * every change, in the browser (no server round trip); save and export go to the API. Exports are
 * drawn by a background job: the page polls its progress, then downloads the file.
 */

import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { apiFetch } from "../../../shared/api-client.ts";
import type { Locale } from "../../../shared/constants.ts";
import { loginHref, pagePath } from "../../../shared/i18n/pages.ts";
import { rememberReturnAfterPayment } from "../../../shared/return-after-payment.ts";
import { showToast } from "../../../shared/ui/lazy-toasts.tsx";
import { type PreviewLayer, useBasemap } from "../basemap/use-basemap.ts";
import {
  EXPORT_FORMATS,
  type ExportFormat,
  MAP_STYLE_IDS,
  MAP_STYLES,
  MARGIN_MAX_MM,
  MARGIN_MIN_MM,
  POSTER_DATA_FLAGS,
  POSTER_EDIT_LIMIT,
  POSTER_FONTS,
  POSTER_PALETTE_IDS,
  POSTER_PALETTES,
  POSTER_SIZE_IDS,
  type PosterDesign,
  type PosterExport,
  type PosterView,
  SUBTITLE_MAX,
  TITLE_MAX,
} from "../poster.contract.ts";
import { browserFonts } from "../render/fonts.client.ts";
import type { PosterFontSet } from "../render/fonts.ts";
import { renderPoster } from "../render/render.ts";
import { PosterSvg } from "./PosterSvg.tsx";

export type StyleAvailability = {
  id: PosterDesign["mapStyle"];
  needs: "tiles" | "dem" | "satellite" | null;
  available: boolean;
};

/** The setting that gives each kind of map data (README, « Posters' map data »). */
const SOURCE_SETTINGS = {
  tiles: "POSTER_TILES_URL",
  dem: "POSTER_DEM_URL",
  satellite: "POSTER_SATELLITE_URL",
} as const;

const FONT_NAMES: Record<(typeof POSTER_FONTS)[number], string> = {
  "noto-sans": "Noto Sans",
  oswald: "Oswald",
  "playfair-display": "Playfair Display",
};

const field = "mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-ink-900 text-sm";
const label = "block font-medium text-ink-800 text-sm";
const fieldset = "rounded-lg border border-slate-200 p-3";
const legend = "px-1 font-semibold text-ink-900 text-sm";

async function errorMessage(response: Response, fallback: string): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  return body?.error?.message ?? fallback;
}

export function PosterCreator({
  initial,
  styles,
  openData = false,
  locale,
  signedIn,
  admin = false,
}: {
  initial: PosterView;
  styles: StyleAvailability[];
  /** France's open map data is there (« Communes et limites », decision 038). */
  openData?: boolean;
  locale: Locale;
  signedIn: boolean;
  /**
   * An administrator: sees the styles whose map data is not set up, disabled, and the settings that
   * enable them. Others see the styles they can use (and the poster's own, should its data be gone).
   */
  admin?: boolean;
}) {
  const { t } = useTranslation("posters");
  const navigate = useNavigate();
  const [design, setDesign] = useState<PosterDesign>(initial.design);
  const [saved, setSaved] = useState<PosterView>(initial);
  const [dirty, setDirty] = useState(initial.id == null);
  const [fonts, setFonts] = useState<PosterFontSet | null>(null);
  const [fontError, setFontError] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ format: ExportFormat; value: number } | null>(null);
  const alive = useRef(true);

  useEffect(() => {
    alive.current = true;
    browserFonts()
      .then((loaded) => alive.current && setFonts(loaded))
      .catch(() => alive.current && setFontError(true));
    return () => {
      alive.current = false;
    };
  }, []);

  // The style's map data (tiles, elevation), fetched for the preview's frame (decision 037).
  const [preview, setPreview] = useState<PreviewLayer>({ layer: null, towns: false });
  const basemap = preview.layer;
  const scene = useMemo(
    () => (fonts ? renderPoster(design, { points: initial.track, breaks: initial.trackBreaks }, fonts, basemap) : null),
    [design, fonts, initial.track, initial.trackBreaks, basemap],
  );
  const askTowns = openData && design.towns;
  useBasemap(design.mapStyle, askTowns, scene?.view, styles, preview, setPreview, async (response) => {
    await showToast("error", await errorMessage(response, t("common:errors.generic")));
  });
  // Asked with towns and none came: the course is outside the data (France only).
  const townsOutside =
    preview.towns && preview.layer != null && !preview.layer.borders?.length && !preview.layer.places?.length;
  const townsOutsideKnown = preview.towns && (preview.layer == null || townsOutside);

  const update = (patch: Partial<PosterDesign>) => {
    setDesign((d) => ({ ...d, ...patch }));
    setDirty(true);
  };
  const setColor = (key: keyof PosterDesign["colors"], value: string) => {
    setDesign((d) => ({ ...d, palette: "custom", colors: { ...d.colors, [key]: value } }));
    setDirty(true);
  };

  async function save(): Promise<PosterView | null> {
    setBusy("save");
    try {
      const response = await apiFetch("/api/poster", {
        method: "POST",
        body: JSON.stringify({ id: saved.id, design }),
      });
      if (!response.ok) {
        await showToast("error", await errorMessage(response, t("common:errors.generic")));
        return null;
      }
      const { poster } = (await response.json()) as { poster: PosterView };
      setSaved({ ...poster, credits: saved.credits });
      setDirty(false);
      if (saved.id == null && poster.id != null) {
        navigate(pagePath("posterEdit", locale, { id: poster.id }), { replace: true });
      }
      return poster;
    } finally {
      setBusy(null);
    }
  }

  async function exportAs(format: ExportFormat) {
    let poster: PosterView | null = saved;
    if (dirty || saved.id == null) poster = await save();
    if (!poster?.id) return;
    setBusy(format);
    setProgress({ format, value: 0 });
    try {
      const url = `/ext/user/poster/${poster.id}/export/${format}`;
      const started = await apiFetch(url, { method: "POST" });
      if (started.status === 402) {
        // No credit left: the offer to buy some replaces the export buttons' promise.
        setSaved((s) => ({ ...s, credits: 0 }));
        await showToast("error", await errorMessage(started, t("creator.noCredits")));
        return;
      }
      if (!started.ok) {
        await showToast("error", await errorMessage(started, t("creator.exportFailed")));
        return;
      }
      setSaved((s) => ({
        ...s,
        exported: true,
        editsLeft: s.editsLeft ?? POSTER_EDIT_LIMIT,
        credits: s.exported ? s.credits : Math.max(0, (s.credits ?? 1) - 1),
      }));
      for (let i = 0; i < 300 && alive.current; i++) {
        const status = await apiFetch(`${url}?download=0`, { method: "GET" });
        if (status.status === 200) {
          setProgress({ format, value: 100 });
          await showToast("success", t("creator.exported", { format: format.toUpperCase() }));
          const link = document.createElement("a");
          link.href = url;
          link.rel = "noopener";
          document.body.append(link);
          link.click();
          link.remove();
          return;
        }
        if (status.status !== 202) {
          await showToast("error", await errorMessage(status, t("creator.exportFailed")));
          return;
        }
        const body = (await status.json()) as { export: PosterExport };
        setProgress({ format, value: body.export.progress });
        await new Promise((resolve) => setTimeout(resolve, 600));
      }
    } finally {
      setBusy(null);
      setProgress(null);
    }
  }

  const styleNote = (s: StyleAvailability) =>
    s.available
      ? null
      : s.needs === "dem"
        ? t("creator.styleNeedsDem")
        : s.needs === "satellite"
          ? t("creator.styleNeedsSatellite")
          : t("creator.styleNeedsTiles");
  const selectedStyle = styles.find((s) => s.id === design.mapStyle);
  const missingSources = (["tiles", "dem", "satellite"] as const).filter((source) =>
    styles.some((s) => s.needs === source && !s.available),
  );

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="min-w-0">
        <div className="sticky top-2 mx-auto max-w-xl rounded-lg bg-slate-100 p-3 shadow-inner">
          {scene ? (
            <PosterSvg
              scene={scene}
              label={t("creator.preview", { title: design.title })}
              className="mx-auto h-auto max-h-[80vh] w-full shadow-lg"
            />
          ) : (
            <p className="p-10 text-center text-ink-700 text-sm" role="status">
              {fontError ? t("creator.previewFailed") : t("creator.loadingPreview")}
            </p>
          )}
        </div>
      </div>

      <form
        className="flex min-w-0 flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <fieldset className={fieldset}>
          <legend className={legend}>{t("creator.text")}</legend>
          <label className={label}>
            {t("creator.posterTitle")}
            <input
              className={field}
              value={design.title}
              maxLength={TITLE_MAX}
              onChange={(e) => update({ title: e.target.value })}
            />
          </label>
          <label className={`${label} mt-3`}>
            {t("creator.subtitle")}
            <input
              className={field}
              value={design.subtitle}
              maxLength={SUBTITLE_MAX}
              onChange={(e) => update({ subtitle: e.target.value })}
            />
          </label>
          <label className={`${label} mt-3`}>
            {t("creator.lang")}
            <select
              className={field}
              value={design.lang}
              onChange={(e) => update({ lang: e.target.value as PosterDesign["lang"] })}
            >
              <option value="fr">{t("creator.langs.fr")}</option>
              <option value="en">{t("creator.langs.en")}</option>
            </select>
          </label>
        </fieldset>

        <fieldset className={fieldset}>
          <legend className={legend}>{t("creator.mapStyle")}</legend>
          <select
            aria-label={t("creator.mapStyle")}
            className={field}
            value={design.mapStyle}
            onChange={(e) => update({ mapStyle: e.target.value as PosterDesign["mapStyle"] })}
          >
            {MAP_STYLE_IDS.map((id) => {
              const s = styles.find((x) => x.id === id) ?? { id, needs: MAP_STYLES[id].needs, available: false };
              if (!s.available && !admin && id !== design.mapStyle) return null;
              return (
                <option key={id} value={id} disabled={!s.available} title={styleNote(s) ?? undefined}>
                  {t(`creator.styles.${id}`)}
                  {s.available ? "" : ` (${t("creator.unavailable")})`}
                </option>
              );
            })}
          </select>
          {selectedStyle && !selectedStyle.available && (
            <p className="mt-1 text-ink-700 text-xs">{styleNote(selectedStyle)}</p>
          )}
          <label className={`${label} mt-3 flex items-start gap-2`}>
            <input
              type="checkbox"
              className="mt-0.5"
              checked={openData && design.towns && !townsOutsideKnown}
              disabled={!openData || townsOutsideKnown}
              aria-describedby="poster-towns-note"
              onChange={(e) => update({ towns: e.target.checked })}
            />
            <span>
              {t("creator.towns")}
              <span id="poster-towns-note" className="block font-normal text-ink-700 text-xs">
                {!openData
                  ? t("creator.townsNoData")
                  : townsOutsideKnown
                    ? t("creator.townsOutside")
                    : t("creator.townsHint")}
              </span>
            </span>
          </label>
          {admin && missingSources.length > 0 ? (
            <p className="mt-2 rounded-md bg-amber-50 p-2 text-ink-800 text-xs" data-testid="poster-styles-admin">
              {t("creator.adminStyles", {
                settings: missingSources.map((source) => SOURCE_SETTINGS[source]).join(", "),
              })}
            </p>
          ) : null}
        </fieldset>

        <fieldset className={fieldset}>
          <legend className={legend}>{t("creator.colours")}</legend>
          <div className="flex flex-wrap gap-2" role="radiogroup" aria-label={t("creator.palette")}>
            {POSTER_PALETTE_IDS.filter((p) => p !== "custom").map((id) => {
              const colors = POSTER_PALETTES[id as keyof typeof POSTER_PALETTES];
              const active = design.palette === id;
              return (
                <label
                  key={id}
                  className={`flex cursor-pointer items-center gap-1 rounded-full border px-2 py-1 text-xs has-[:focus-visible]:ring-2 ${active ? "border-brand-700 ring-2 ring-brand-700" : "border-slate-300"}`}
                >
                  <input
                    type="radio"
                    name="palette"
                    className="sr-only"
                    checked={active}
                    onChange={() => update({ palette: id, colors: { ...colors } })}
                  />
                  <span
                    aria-hidden="true"
                    className="inline-block h-4 w-4 rounded-full border border-slate-300"
                    style={{ background: `linear-gradient(135deg, ${colors.background} 50%, ${colors.track} 50%)` }}
                  />
                  {t(`creator.palettes.${id}`)}
                </label>
              );
            })}
          </div>
          <div className="mt-3 grid grid-cols-2 gap-2">
            {(
              [
                ["background", "creator.background"],
                ["track", "creator.track"],
                ["text", "creator.textColour"],
                ["accent", "creator.accent"],
              ] as const
            ).map(([key, text]) => (
              <label key={key} className="flex items-center gap-2 text-ink-800 text-sm">
                <input
                  type="color"
                  value={design.colors[key]}
                  onChange={(e) => setColor(key, e.target.value)}
                  className="h-8 w-10 rounded border border-slate-300"
                />
                {t(text)}
              </label>
            ))}
          </div>
        </fieldset>

        <fieldset className={fieldset}>
          <legend className={legend}>{t("creator.layout")}</legend>
          <div className="grid grid-cols-2 gap-3">
            <label className={label}>
              {t("creator.font")}
              <select
                className={field}
                value={design.font}
                onChange={(e) => update({ font: e.target.value as PosterDesign["font"] })}
              >
                {POSTER_FONTS.map((f) => (
                  <option key={f} value={f}>
                    {FONT_NAMES[f]}
                  </option>
                ))}
              </select>
            </label>
            <label className={label}>
              {t("creator.size")}
              <select
                className={field}
                value={design.size}
                onChange={(e) => update({ size: e.target.value as PosterDesign["size"] })}
              >
                {POSTER_SIZE_IDS.map((s) => (
                  <option key={s} value={s}>
                    {s.replace("x", " × ")}
                  </option>
                ))}
              </select>
            </label>
            <label className={label}>
              {t("creator.orientation")}
              <select
                className={field}
                value={design.orientation}
                onChange={(e) => update({ orientation: e.target.value as PosterDesign["orientation"] })}
              >
                <option value="portrait">{t("creator.portrait")}</option>
                <option value="landscape">{t("creator.landscape")}</option>
              </select>
            </label>
            <label className={label}>
              {t("creator.textPosition")}
              <select
                className={field}
                value={design.textPosition}
                onChange={(e) => update({ textPosition: e.target.value as PosterDesign["textPosition"] })}
              >
                <option value="bottom">{t("creator.bottom")}</option>
                <option value="top">{t("creator.top")}</option>
              </select>
            </label>
          </div>
          <label className={`${label} mt-3`}>
            {t("creator.margin", { mm: design.marginMm })}
            <input
              type="range"
              className="mt-1 w-full"
              min={MARGIN_MIN_MM}
              max={MARGIN_MAX_MM}
              step={1}
              value={design.marginMm}
              onChange={(e) => update({ marginMm: Number(e.target.value) })}
            />
          </label>
        </fieldset>

        <fieldset className={fieldset}>
          <legend className={legend}>{t("creator.data")}</legend>
          <div className="grid grid-cols-2 gap-2">
            {POSTER_DATA_FLAGS.map((flag) => (
              <label key={flag} className="flex items-center gap-2 text-ink-800 text-sm">
                <input
                  type="checkbox"
                  checked={design.show[flag]}
                  onChange={(e) => update({ show: { ...design.show, [flag]: e.target.checked } })}
                />
                {t(`creator.flags.${flag}`)}
              </label>
            ))}
          </div>
          <label className="mt-3 flex items-center gap-2 text-ink-800 text-sm">
            <input type="checkbox" checked={design.private} onChange={(e) => update({ private: e.target.checked })} />
            {t("creator.private")}
          </label>
        </fieldset>

        {signedIn ? (
          <div className="flex flex-col gap-2">
            {saved.credits != null &&
              (!saved.exported && saved.credits === 0 ? (
                <div data-testid="buy-credits" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm">
                  <p className="text-ink-900">{t("creator.noCredits")}</p>
                  <a
                    className="mt-2 inline-block rounded-md bg-brand-700 px-3 py-2 font-semibold text-white"
                    href={`${pagePath("orders", locale)}#buy-credits`}
                    onClick={() => {
                      if (saved.id != null)
                        rememberReturnAfterPayment(pagePath("posterEdit", locale, { id: saved.id }));
                    }}
                  >
                    {t("creator.buyCredits")}
                  </a>
                </div>
              ) : (
                <p className="text-ink-700 text-sm" data-testid="poster-credits">
                  {saved.exported
                    ? saved.editsLeft != null && t("creator.editsLeft", { count: saved.editsLeft })
                    : t("creator.credits", { count: saved.credits })}
                </p>
              ))}
            <button
              type="submit"
              disabled={busy != null}
              className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-sm text-white disabled:opacity-60"
            >
              {t("creator.save")}
            </button>
            <div className="flex flex-wrap gap-2">
              {EXPORT_FORMATS.map((format) => (
                <button
                  key={format}
                  type="button"
                  disabled={busy != null}
                  onClick={() => void exportAs(format)}
                  className="flex-1 rounded-md border border-brand-700 px-3 py-2 font-semibold text-brand-700 text-sm disabled:opacity-60"
                >
                  {t("creator.exportAs", { format: format.toUpperCase() })}
                </button>
              ))}
            </div>
            {progress && (
              <div role="status" className="text-ink-700 text-sm">
                {t("creator.exporting", { format: progress.format.toUpperCase(), progress: progress.value })}
                <progress className="mt-1 block w-full" max={100} value={progress.value} />
              </div>
            )}
          </div>
        ) : (
          <p className="rounded-md bg-slate-100 p-3 text-ink-800 text-sm">
            {t("creator.loginToSave")}{" "}
            <a
              className="font-semibold text-brand-700 underline"
              href={loginHref(
                locale,
                typeof window === "undefined" ? "/" : window.location.pathname + window.location.search,
              )}
            >
              {t("creator.login")}
            </a>
          </p>
        )}
      </form>
    </div>
  );
}
