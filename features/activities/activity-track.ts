/**
 * From recorded samples (Strava streams or a GPX/TCX/FIT file) to what an activity stores: the
 * course-track processing of features/tracks (distance, D+ smoothed the same way, simplified line,
 * elevation profile) plus what only a recorded activity has: elapsed and moving time, splits per
 * km, heart rate. Pure and isomorphic, so it runs in the upload workers too.
 */
import type { TrackPoint } from "../maps/geometry.ts";
import {
  analyseElevation,
  cumulativeDistances,
  type ProcessedTrack,
  processTrack,
} from "../tracks/track-processing.ts";
import type { ActivitySplit } from "./activities.tables.ts";

export type ActivitySample = {
  lng: number;
  lat: number;
  ele: number | null;
  /** Epoch milliseconds, when recorded. */
  time: number | null;
  hr: number | null;
};

export type ActivityTrack = {
  track: ProcessedTrack;
  startedAt: number | null;
  elapsedTime: number | null;
  movingTime: number | null;
  splits: ActivitySplit[];
  heartRate: [number, number][];
  averageHeartRate: number | null;
  maxHeartRate: number | null;
};

/** Slower than this between two samples is standing still (moving time leaves it out). */
const MOVING_SPEED = 0.5;
/** A remainder shorter than this (metres past the last full km) is folded into that km's split. */
const LAST_SPLIT_MIN = 100;
const HR_SAMPLES = 200;

/** Interpolated time (ms) at distance `at` along `cumulative`, from index `from` on. */
function timeAt(cumulative: Float64Array, times: number[], at: number, hint: { i: number }): number {
  let i = hint.i;
  while (i < cumulative.length - 2 && cumulative[i + 1] < at) i++;
  hint.i = i;
  const span = cumulative[i + 1] - cumulative[i];
  const share = span > 0 ? (at - cumulative[i]) / span : 1;
  return times[i] + (times[i + 1] - times[i]) * Math.min(1, Math.max(0, share));
}

export function buildActivityTrack(
  samples: readonly ActivitySample[],
  name: string | null = null,
  breaks: readonly number[] = [],
): ActivityTrack {
  const points: TrackPoint[] = samples.map((s) => [s.lng, s.lat, s.ele]);
  const track = processTrack(points, name, breaks);
  const cumulative = cumulativeDistances(points, breaks);
  const timed = samples.every((s) => s.time !== null);
  const times = timed ? samples.map((s) => s.time as number) : [];
  const distance = cumulative[cumulative.length - 1];

  let elapsedTime: number | null = null;
  let movingTime: number | null = null;
  if (timed) {
    elapsedTime = Math.round((times[times.length - 1] - times[0]) / 1000);
    let moving = 0;
    const gaps = new Set(breaks);
    for (let i = 1; i < times.length; i++) {
      const dt = (times[i] - times[i - 1]) / 1000;
      if (dt <= 0 || gaps.has(i)) continue;
      if ((cumulative[i] - cumulative[i - 1]) / dt >= MOVING_SPEED) moving += dt;
    }
    movingTime = Math.round(moving);
  }

  // Elevation gain per km from the same smoothed elevation as the total.
  const elevation = analyseElevation(points, cumulative, breaks);
  const gainPerKm: number[] = [];
  if (elevation) {
    for (let k = 1; k < elevation.distances.length; k++) {
      const rise = elevation.elevations[k] - elevation.elevations[k - 1];
      if (rise <= 0) continue;
      const km = Math.floor(elevation.distances[k] / 1000);
      gainPerKm[km] = (gainPerKm[km] ?? 0) + rise;
    }
  }

  const hrs = samples.map((s) => s.hr);
  const hasHr = hrs.some((h) => h !== null && h > 0);
  const splits: ActivitySplit[] = [];
  if (timed) {
    const hint = { i: 0 };
    let previousTime = times[0];
    let previousDistance = 0;
    let sample = 0;
    for (let km = 1; previousDistance < distance; km++) {
      let end = Math.min(km * 1000, distance);
      // A few metres left after the last full km go with it rather than make a split of their own.
      const folded = distance - end < LAST_SPLIT_MIN && end < distance;
      if (folded) end = distance;
      const at = timeAt(cumulative, times, end, hint);
      let hrSum = 0;
      let hrCount = 0;
      while (sample < samples.length && cumulative[sample] <= end) {
        const hr = hrs[sample];
        if (hr !== null && hr > 0) {
          hrSum += hr;
          hrCount++;
        }
        sample++;
      }
      splits.push({
        km: folded || end === distance ? Math.round((end / 1000) * 10) / 10 : km,
        distance: Math.round(end - previousDistance),
        // Rounded from the start, so the splits add up to the elapsed time.
        seconds: Math.round((at - times[0]) / 1000) - Math.round((previousTime - times[0]) / 1000),
        elevationGain: elevation ? Math.round(gainPerKm[km - 1] ?? 0) : null,
        heartRate: hasHr && hrCount ? Math.round(hrSum / hrCount) : null,
      });
      previousTime = at;
      previousDistance = end;
    }
  }

  let heartRate: [number, number][] = [];
  let averageHeartRate: number | null = null;
  let maxHeartRate: number | null = null;
  if (hasHr) {
    const valid = hrs
      .map((h, i) => [cumulative[i], h] as const)
      .filter((p): p is readonly [number, number] => p[1] !== null && p[1] > 0);
    averageHeartRate = Math.round(valid.reduce((sum, [, h]) => sum + h, 0) / valid.length);
    maxHeartRate = Math.max(...valid.map(([, h]) => h));
    const step = Math.max(1, Math.ceil(valid.length / HR_SAMPLES));
    heartRate = valid.filter((_, i) => i % step === 0).map(([d, h]) => [Math.round(d), Math.round(h)]);
  }

  return {
    track,
    startedAt: timed ? times[0] : null,
    elapsedTime,
    movingTime,
    splits,
    heartRate,
    averageHeartRate,
    maxHeartRate,
  };
}

/** Strava's streams (key_by_type) as samples; the start time is the activity's. */
export function samplesFromStreams(
  streams: {
    latlng?: [number, number][];
    altitude?: (number | null)[];
    time?: number[];
    heartrate?: (number | null)[];
  },
  startMs: number,
): ActivitySample[] {
  const latlng = streams.latlng ?? [];
  return latlng.map(([lat, lng], i) => ({
    lat,
    lng,
    ele: streams.altitude?.[i] ?? null,
    time: streams.time?.[i] !== undefined ? startMs + (streams.time[i] as number) * 1000 : null,
    hr: streams.heartrate?.[i] ?? null,
  }));
}
