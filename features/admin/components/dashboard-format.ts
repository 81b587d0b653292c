import { formatNumber } from "../../../shared/format.ts";

const UNITS = ["byte", "kilobyte", "megabyte", "gigabyte", "terabyte"] as const;

/** 1 234 567 890 → « 1,2 Go » (fr) / "1.2 GB" (en): decimal units, one decimal under 100. */
export function formatBytes(bytes: number, locale: string): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return new Intl.NumberFormat(locale === "fr" ? "fr-FR" : "en-GB", {
    style: "unit",
    unit: UNITS[unit],
    unitDisplay: "short",
    maximumFractionDigits: value < 100 && unit > 0 ? 1 : 0,
  }).format(value);
}

/** 93784 s → « 1 j 2 h » / "1 d 2 h"; under a day « 2 h 3 min »; under an hour « 4 min ». */
export function formatUptime(seconds: number, locale: string): string {
  const fr = locale === "fr";
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const nbsp = "\u00a0";
  if (days > 0) return `${days}${nbsp}${fr ? "j" : "d"} ${hours}${nbsp}h`;
  if (hours > 0) return `${hours}${nbsp}h ${minutes}${nbsp}min`;
  return `${minutes}${nbsp}min`;
}

/** 12.34 → « 12,3 % » / "12.3%". */
export function formatPercent(value: number, locale: string, digits = 1): string {
  return new Intl.NumberFormat(locale === "fr" ? "fr-FR" : "en-GB", {
    style: "percent",
    maximumFractionDigits: digits,
  }).format(value / 100);
}

/** A latency from the histogram: « ≤ 250 ms », « > 5 s » for the slowest bucket, « — » without requests. */
export function formatLatency(ms: number | null, locale: string): string {
  if (ms === null) return "—";
  if (ms > 5000) return `>\u00a05\u00a0s`;
  return `≤\u00a0${formatNumber(ms, locale)}\u00a0ms`;
}
