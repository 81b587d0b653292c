/** A point on a race map: shared by the MapLibre map and its SVG drawing. */
export type RaceMapMarker = {
  id: string | number;
  lat: number;
  lng: number;
  /** Accessible name of the marker (the race or the place). */
  label: string;
  /** A pin for a place or a race (default), a dot for a course's start or finish. */
  kind?: "place" | "event" | "start" | "finish";
  /** Where the default popup links to. */
  href?: string;
};
