-- Search (issue 3). Indexes only; no table changes.
-- Longest event span (end_date - start_date): lets "not finished yet" (end_date >= day) also bound
-- start_date, so the start_date indexes serve it in order.
CREATE INDEX IF NOT EXISTS "events_span_idx" ON "events" USING btree (("end_date" - "start_date"));
--> statement-breakpoint
-- Every search filters on active events: a narrow covering index in chronological order serves the
-- page, the total and the facets with index-only scans, without reading the wide rows.
CREATE INDEX IF NOT EXISTS "events_active_cover_idx" ON "events" USING btree ("start_date", "id")
  INCLUDE ("end_date", "created_at", "sport_id", "region_code", "department_code", "scope", "cancelled", "lat", "lng")
  WHERE "status" = 'active';
--> statement-breakpoint
-- Course filters and facets (distance, elevation band) and card distances, index-only per event.
CREATE INDEX IF NOT EXISTS "courses_event_cover_idx" ON "courses" USING btree ("event_id")
  INCLUDE ("distance", "elevation_gain", "duration");
--> statement-breakpoint
-- Place autocomplete: slug prefix and trigram word similarity (typos), postal codes, nearest commune.
CREATE INDEX IF NOT EXISTS "communes_slug_trgm_idx" ON "communes" USING gin ("slug" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "communes_slug_prefix_idx" ON "communes" USING btree ("slug" text_pattern_ops);
--> statement-breakpoint
-- Every 2 to 5 digit prefix of a commune's postal codes ("38", "380", "3800", "38000"), so a
-- postal code or its first digits is one GIN lookup.
CREATE OR REPLACE FUNCTION postal_code_prefixes(text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT coalesce(array_agg(DISTINCT left(p, n)), '{}') FROM unnest($1) AS p, generate_series(2, 5) AS n $$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "communes_postal_prefixes_idx" ON "communes" USING gin (postal_code_prefixes("postal_codes"));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "communes_earth_idx" ON "communes" USING gist (ll_to_earth("lat", "lng"));
