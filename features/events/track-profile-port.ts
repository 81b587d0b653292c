/**
 * The elevation profile of a stored track, drawn on the event page and served by
 * GET /api/track/{id}/elevation. Tracks compute it (features/tracks/track-stats.ts,
 * segmentedProfile); server/services.server.ts gives it to the event detail service through this
 * port, so events never import tracks (tracks hang on events' courses and import events).
 */
import type { TrackPoint } from "../maps/geometry.ts";

/** `samples` [distance m, elevation m] pairs along the line; `breaks`: where a new segment starts. */
export type TrackProfileOf = (
  points: readonly TrackPoint[],
  breaks: readonly number[],
  samples: number,
) => { profile: [number, number][]; breaks: number[] };
