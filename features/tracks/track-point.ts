// A point of a stored track, declared with the lines' geometry (features/maps/geometry.ts), which the
// events' tables use too.
export type { TrackPoint } from "../maps/geometry.ts";
