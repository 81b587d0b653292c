/** A point of a stored track: longitude, latitude (degrees) and elevation (metres, null when the file has none). */
export type TrackPoint = [lng: number, lat: number, ele: number | null];
