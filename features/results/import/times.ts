/**
 * Race times as timing companies print them, read to milliseconds. Isomorphic and pure.
 *
 * Understood: `h:mm:ss`, `hh:mm:ss`, `mm:ss` (two parts are minutes and seconds), hours past 24
 * (`26:03:04`), days (`1j 02:03:04`, `1d02:03:04`), unit letters (`1h03'55`, `1h03'55"`,
 * `1h03m55s`, `1h03`, `03'55''`, `55s`), tenths to thousandths with a point or a comma
 * (`1:03:55.4`, `1:03:55,4`), and an official time followed by the net one in brackets
 * (`01:03:55 (01:03:52)`).
 */

export type ParsedTime = { timeMs: number; netTimeMs: number | null };

const FRACTION = String.raw`(?:[.,](\d{1,3}))?`;
/** [days] h:mm:ss | mm:ss, with a fraction. */
const COLON = new RegExp(String.raw`^(?:(\d{1,2})\s*[jd]\s*)?(?:(\d{1,3}):)?(\d{1,2}):(\d{1,2})${FRACTION}$`, "i");
/** 1h03'55", 1h03m55s, 1h03, 03'55, 55s… (at least one unit). */
const UNITS = new RegExp(
  String.raw`^(?:(\d{1,3})\s*h\s*)?(?:(\d{1,2})\s*(?:'|’|m|min|mn)\s*)?(?:(\d{1,2})${FRACTION}\s*(?:''|"|”|’’|s|sec)?)?$`,
  "i",
);

function fractionMs(digits: string | undefined): number {
  if (!digits) return 0;
  return Math.round(Number(`0.${digits}`) * 1000);
}

/** One time to milliseconds, or null when the text is not a time. */
export function parseSingleTime(raw: string): number | null {
  const text = raw.trim().replace(/\s+/g, " ");
  if (!text) return null;
  let match = COLON.exec(text);
  if (match) {
    const [, days, hours, minutes, seconds, fraction] = match;
    const h = Number(hours ?? 0) + Number(days ?? 0) * 24;
    const m = Number(minutes);
    const s = Number(seconds);
    // Minutes are bounded only below an hour field; seconds always.
    if (s >= 60 || (hours !== undefined && m >= 60)) return null;
    const ms = ((h * 60 + m) * 60 + s) * 1000 + fractionMs(fraction);
    return ms > 0 ? ms : null;
  }
  match = UNITS.exec(text);
  if (match && /[hm'’s"”]/i.test(text)) {
    const [, hours, minutes, seconds, fraction] = match;
    if (hours === undefined && minutes === undefined && seconds === undefined) return null;
    // "1h03" means 1 h 03 min: a bare number after hours is minutes.
    const bareAfterHours =
      hours !== undefined && minutes === undefined && seconds !== undefined && !/\d\s*(?:''|"|”|’’|s|sec)$/i.test(text);
    const h = Number(hours ?? 0);
    const m = bareAfterHours ? Number(seconds) : Number(minutes ?? 0);
    const s = bareAfterHours ? 0 : Number(seconds ?? 0);
    if (s >= 60 || (hours !== undefined && m >= 60)) return null;
    if (bareAfterHours && fraction) return null;
    const ms = ((h * 60 + m) * 60 + s) * 1000 + (bareAfterHours ? 0 : fractionMs(fraction));
    return ms > 0 ? ms : null;
  }
  return null;
}

/** "01:03:55 (01:03:52)": official then net; a single time is official only. Null when not a time. */
export function parseTime(raw: string): ParsedTime | null {
  const text = raw.trim();
  const both = /^(.+?)\s*[([]\s*(.+?)\s*[)\]]$/.exec(text);
  if (both) {
    const timeMs = parseSingleTime(both[1]!);
    const netTimeMs = parseSingleTime(both[2]!);
    return timeMs !== null && netTimeMs !== null ? { timeMs, netTimeMs } : null;
  }
  const timeMs = parseSingleTime(text);
  return timeMs === null ? null : { timeMs, netTimeMs: null };
}

/** Milliseconds as `h:mm:ss` (tenths shown when present): 3835400 → "1:03:55.4". */
export function formatTimeMs(ms: number): string {
  const totalSeconds = Math.floor(ms / 1000);
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  const tenths = Math.floor((ms % 1000) / 100);
  const base = `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
  return tenths ? `${base}.${tenths}` : base;
}

/** Seconds per km as `m:ss` (5:12). */
export function formatPace(secondsPerKm: number): string {
  const m = Math.floor(secondsPerKm / 60);
  const s = Math.round(secondsPerKm % 60);
  return s === 60 ? `${m + 1}:00` : `${m}:${String(s).padStart(2, "0")}`;
}
