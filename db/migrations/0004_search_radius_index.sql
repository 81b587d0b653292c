-- Radius searches (issue 3): active events by position and start day in one GiST index. The key is
-- the 3-D point of ll_to_earth(lat, lng) with a fourth dimension, the start day (days since
-- 2000-01-01), so "within this box, starting from that day" prunes past editions inside the index
-- instead of reading them; INCLUDE lets the count and the facets answer from the index alone.
CREATE INDEX IF NOT EXISTS "events_active_earth_day_idx" ON "events" USING gist (
  cube(ll_to_earth("lat", "lng")::cube, ("start_date" - DATE '2000-01-01')::float8)
) INCLUDE ("id", "start_date", "end_date", "created_at", "sport_id", "region_code", "department_code", "scope", "cancelled", "lat", "lng")
  WHERE "status" = 'active';
