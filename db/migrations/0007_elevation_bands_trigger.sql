-- Elevation bands of an event's courses (issue 3), kept on events.elevation_bands so the search
-- facets and the band filter read the covering indexes instead of courses. Bit i is set when a
-- course's elevation gain falls in ELEVATION_BANDS[i] (shared/constants.ts): width_bucket() on the
-- lower bounds of the bands after the first (a gain under 100 m, negative included, is band 0).
CREATE OR REPLACE FUNCTION course_elevation_band_bit(integer) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT 1 << width_bucket($1, ARRAY[100, 500, 1000, 2000, 5000, 10000]) $$;
--> statement-breakpoint
-- Recomputes the mask of the given events from their courses (rows already right are left alone).
CREATE OR REPLACE FUNCTION refresh_event_elevation_bands(integer[]) RETURNS void
  LANGUAGE sql
  AS $$
    UPDATE events e SET elevation_bands = m.bands
    FROM (
      SELECT x.id, coalesce((
        SELECT bit_or(course_elevation_band_bit(c.elevation_gain)) FROM courses c WHERE c.event_id = x.id
      ), 0)::smallint AS bands
      FROM unnest($1) AS x(id)
    ) m
    WHERE e.id = m.id AND e.elevation_bands <> m.bands
  $$;
--> statement-breakpoint
-- Statement-level triggers with transition tables: one UPDATE of events per statement on courses,
-- however many rows it writes. An insert only adds bits; an update or a delete recomputes the
-- events whose courses changed (old and new event when a course moves).
CREATE OR REPLACE FUNCTION courses_elevation_bands_trigger() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      UPDATE events e SET elevation_bands = (e.elevation_bands | n.bands)::smallint
      FROM (
        SELECT event_id, bit_or(course_elevation_band_bit(elevation_gain)) AS bands
        FROM new_courses WHERE elevation_gain IS NOT NULL GROUP BY event_id
      ) n
      WHERE e.id = n.event_id AND (e.elevation_bands | n.bands) <> e.elevation_bands;
    ELSIF TG_OP = 'UPDATE' THEN
      PERFORM refresh_event_elevation_bands(ARRAY(
        SELECT event_id FROM (
          (SELECT id, event_id, elevation_gain FROM old_courses EXCEPT SELECT id, event_id, elevation_gain FROM new_courses)
          UNION ALL
          (SELECT id, event_id, elevation_gain FROM new_courses EXCEPT SELECT id, event_id, elevation_gain FROM old_courses)
        ) changed GROUP BY event_id
      ));
    ELSE
      PERFORM refresh_event_elevation_bands(ARRAY(SELECT DISTINCT event_id FROM old_courses));
    END IF;
    RETURN NULL;
  END
  $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "courses_elevation_bands_insert" ON "courses";
--> statement-breakpoint
CREATE TRIGGER "courses_elevation_bands_insert" AFTER INSERT ON "courses"
  REFERENCING NEW TABLE AS new_courses
  FOR EACH STATEMENT EXECUTE FUNCTION courses_elevation_bands_trigger();
--> statement-breakpoint
-- Transition tables cannot go with a column list (UPDATE OF): the function skips unchanged rows.
DROP TRIGGER IF EXISTS "courses_elevation_bands_update" ON "courses";
--> statement-breakpoint
CREATE TRIGGER "courses_elevation_bands_update" AFTER UPDATE ON "courses"
  REFERENCING OLD TABLE AS old_courses NEW TABLE AS new_courses
  FOR EACH STATEMENT EXECUTE FUNCTION courses_elevation_bands_trigger();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "courses_elevation_bands_delete" ON "courses";
--> statement-breakpoint
CREATE TRIGGER "courses_elevation_bands_delete" AFTER DELETE ON "courses"
  REFERENCING OLD TABLE AS old_courses
  FOR EACH STATEMENT EXECUTE FUNCTION courses_elevation_bands_trigger();
--> statement-breakpoint
-- Backfill.
UPDATE events e SET elevation_bands = m.bands
FROM (
  SELECT event_id, bit_or(course_elevation_band_bit(elevation_gain))::smallint AS bands
  FROM courses WHERE elevation_gain IS NOT NULL GROUP BY event_id
) m
WHERE e.id = m.event_id AND e.elevation_bands <> m.bands;
--> statement-breakpoint
-- The covering indexes of the search (0003, 0004) with the mask, so the facets stay index-only.
DROP INDEX IF EXISTS "events_active_cover_idx";
--> statement-breakpoint
CREATE INDEX "events_active_cover_idx" ON "events" USING btree ("start_date", "id")
  INCLUDE ("end_date", "created_at", "sport_id", "region_code", "department_code", "scope", "cancelled", "lat", "lng", "elevation_bands")
  WHERE "status" = 'active';
--> statement-breakpoint
DROP INDEX IF EXISTS "events_active_earth_day_idx";
--> statement-breakpoint
CREATE INDEX "events_active_earth_day_idx" ON "events" USING gist (
  cube(ll_to_earth("lat", "lng")::cube, ("start_date" - DATE '2000-01-01')::float8)
) INCLUDE ("id", "start_date", "end_date", "created_at", "sport_id", "region_code", "department_code", "scope", "cancelled", "lat", "lng", "elevation_bands")
  WHERE "status" = 'active';
