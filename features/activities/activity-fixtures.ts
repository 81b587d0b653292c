/**
 * Real-shaped activity files for tests: a run recorded once a second-ish, written as GPX 1.1 with
 * Garmin's TrackPointExtension (what Garmin Connect and Strava export), TCX (Garmin Training Center
 * v2) and FIT (encoded by Garmin's own SDK, @garmin/fitsdk, a devDependency). Test-only.
 */
import { Encoder, Profile } from "@garmin/fitsdk";

export type FixturePoint = { lat: number; lng: number; ele: number; time: Date; hr: number };

/** A 5 km out-and-back run from (45.9, 6.1) at 5:30/km, one point every 5 s, rolling hills, HR. */
export function fixtureRun(options: { km?: number; start?: Date; lat?: number; lng?: number } = {}): FixturePoint[] {
  const km = options.km ?? 5;
  const start = options.start ?? new Date("2026-05-17T07:30:00Z");
  const lat0 = options.lat ?? 45.9;
  const lng0 = options.lng ?? 6.1;
  const total = km * 1000;
  const speed = 1000 / 330;
  const perDegLng = 111_320 * Math.cos((lat0 * Math.PI) / 180);
  const points: FixturePoint[] = [];
  for (let t = 0; ; t += 5) {
    const d = Math.min(total, t * speed);
    const along = d <= total / 2 ? d : total - d;
    const side = d <= total / 2 ? 0 : 30;
    points.push({
      lat: Number((lat0 + side / 111_320).toFixed(7)),
      lng: Number((lng0 + along / perDegLng).toFixed(7)),
      ele: Number((600 + 30 * Math.sin(along / 500)).toFixed(1)),
      time: new Date(start.getTime() + t * 1000),
      hr: 135 + Math.round(15 * Math.sin(t / 400)),
    });
    if (d >= total) break;
  }
  return points;
}

export function toGpx(points: FixturePoint[], name = "Sortie du matin"): string {
  const pts = points
    .map(
      (p) =>
        `<trkpt lat="${p.lat}" lon="${p.lng}"><ele>${p.ele}</ele><time>${p.time.toISOString()}</time>` +
        `<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>${p.hr}</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<gpx creator="Garmin Connect" version="1.1" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
  <metadata><time>${points[0]?.time.toISOString()}</time></metadata>
  <trk><name>${name}</name><type>running</type><trkseg>
${pts}
  </trkseg></trk>
</gpx>
`;
}

export function toTcx(points: FixturePoint[]): string {
  const pts = points
    .map(
      (p) =>
        `<Trackpoint><Time>${p.time.toISOString()}</Time><Position><LatitudeDegrees>${p.lat}</LatitudeDegrees>` +
        `<LongitudeDegrees>${p.lng}</LongitudeDegrees></Position><AltitudeMeters>${p.ele}</AltitudeMeters>` +
        `<HeartRateBpm><Value>${p.hr}</Value></HeartRateBpm></Trackpoint>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
  <Activities><Activity Sport="Running"><Id>${points[0]?.time.toISOString()}</Id>
    <Lap StartTime="${points[0]?.time.toISOString()}"><TotalTimeSeconds>0</TotalTimeSeconds><Track>
${pts}
    </Track></Lap>
  </Activity></Activities>
</TrainingCenterDatabase>
`;
}

const SEMICIRCLES = 2 ** 31 / 180;

/** A FIT activity file as a watch writes it: file id, records, lap, session, activity. */
export function toFit(points: FixturePoint[], sport: "running" | "cycling" = "running"): Uint8Array {
  const encoder = new Encoder();
  // The SDK's Mesg type lists no fields; the field names are the profile's (checked when encoding).
  const mesg = (num: number, fields: Record<string, unknown>) => encoder.onMesg(num, fields as never);
  const first = points[0]?.time ?? new Date();
  const last = points[points.length - 1]?.time ?? first;
  mesg(Profile.MesgNum.FILE_ID, {
    type: "activity",
    manufacturer: "development",
    product: 0,
    timeCreated: first,
    serialNumber: 1234,
  });
  for (const p of points) {
    mesg(Profile.MesgNum.RECORD, {
      timestamp: p.time,
      positionLat: Math.round(p.lat * SEMICIRCLES),
      positionLong: Math.round(p.lng * SEMICIRCLES),
      enhancedAltitude: p.ele,
      heartRate: p.hr,
    });
  }
  const elapsed = (last.getTime() - first.getTime()) / 1000;
  mesg(Profile.MesgNum.LAP, {
    timestamp: last,
    startTime: first,
    totalElapsedTime: elapsed,
    totalTimerTime: elapsed,
  });
  mesg(Profile.MesgNum.SESSION, {
    timestamp: last,
    startTime: first,
    totalElapsedTime: elapsed,
    totalTimerTime: elapsed,
    sport,
    subSport: "generic",
    firstLapIndex: 0,
    numLaps: 1,
  });
  mesg(Profile.MesgNum.ACTIVITY, {
    timestamp: last,
    numSessions: 1,
    totalTimerTime: elapsed,
    type: "manual",
  });
  return encoder.close();
}
