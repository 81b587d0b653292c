/**
 * The figures printed under a poster's title (distance, elevation gain, time, pace, rank, date):
 * which ones, in which order, with their labels in the poster's language. Isomorphic, pure.
 */
import enPosters from "../../../locales/en/posters.json";
import frPosters from "../../../locales/fr/posters.json";
import { formatNumber, formatPace, formatRaceTime } from "../../../shared/format.ts";
import type { PosterDataFlag, PosterDesign } from "../poster.contract.ts";

/** The printed labels of each language. */
export const PRINT = { fr: frPosters.print, en: enPosters.print };

function ordinal(rank: number, lang: "fr" | "en"): string {
  if (lang === "fr") return rank === 1 ? "1er" : `${rank}e`;
  const tens = rank % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][rank % 10] ?? "th");
  return `${formatNumber(rank, "en")}${suffix}`;
}

function formatDay(iso: string, lang: "fr" | "en"): string {
  const date = new Date(`${iso}T12:00:00Z`);
  return new Intl.DateTimeFormat(lang === "fr" ? "fr-FR" : "en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(date);
}

/** The figures printed under the title, in order, with the design's flags and available data. */
export function posterFigures(
  design: PosterDesign,
  trackDistanceM: number | null,
): { key: PosterDataFlag; label: string; value: string }[] {
  const { data, show, lang } = design;
  const labels = PRINT[lang];
  const distanceM = data.distanceM ?? trackDistanceM;
  const out: { key: PosterDataFlag; label: string; value: string }[] = [];
  if (show.distance && distanceM != null && distanceM > 0) {
    out.push({
      key: "distance",
      label: labels.distance,
      value: `${formatNumber(distanceM / 1000, lang, { maximumFractionDigits: 1 })} km`,
    });
  }
  if (show.elevationGain && data.elevationGainM != null) {
    out.push({
      key: "elevationGain",
      label: labels.elevationGain,
      value: `${formatNumber(data.elevationGainM, lang, { maximumFractionDigits: 0 })} m`,
    });
  }
  if (show.time && data.timeMs != null) {
    out.push({ key: "time", label: labels.time, value: formatRaceTime(data.timeMs / 1000) });
  }
  if (show.pace && data.timeMs != null && distanceM != null && distanceM > 0) {
    out.push({ key: "pace", label: labels.pace, value: formatPace(data.timeMs / distanceM) });
  }
  if (show.rank && data.rank != null) out.push({ key: "rank", label: labels.rank, value: ordinal(data.rank, lang) });
  if (show.date && data.date) out.push({ key: "date", label: labels.date, value: formatDay(data.date, lang) });
  return out;
}
