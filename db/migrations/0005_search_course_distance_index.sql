-- Distance filters (issue 3): the courses within a distance range and their events, from the index
-- alone, so a search can start from the few matching courses instead of probing every event.
CREATE INDEX IF NOT EXISTS "courses_distance_cover_idx" ON "courses" USING btree ("distance")
  INCLUDE ("event_id", "elevation_gain");
