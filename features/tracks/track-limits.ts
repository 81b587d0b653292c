/** The limits and sizes of a course track: what an upload may hold and what is kept of it. */
/** Largest accepted file (bytes) and number of points; beyond either, GPX_TOO_LARGE (413, a message naming both). */
export const TRACK_MAX_BYTES = 15 * 1024 * 1024;
export const TRACK_MAX_POINTS = 200_000;
/** Points kept in the stored line (maps, GPX export). */
export const TRACK_DISPLAY_POINTS = 1_500;
/** Samples of the elevation profile (the `profile` column, [distance m, elevation m]). */
export const TRACK_PROFILE_SAMPLES = 200;
export const TRACK_NAME_MAX = 200;
