-- Tracks keep their segments (issue 26 item 4): `breaks` lists the indexes in `points` where a new
-- segment (a GPX <trkseg>) starts, so that no line, profile or export crosses the gap between two.
-- Activities' streams and posters' copies of a line keep theirs beside their points.
ALTER TABLE "activity_streams" ADD COLUMN "breaks" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "tracks" ADD COLUMN "breaks" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "posters" ADD COLUMN "track_breaks" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- Existing lines were stored joined: one segment, unless their own figures say otherwise. Their
-- distance was measured segment by segment on the full file, and the stored line is a
-- simplification of it (never longer within a segment), so a line longer than its distance by more
-- than 1 % (50 m at least) has gaps: its longest steps (100 m or more) that the excess can account
-- for become breaks, as long as that explains the whole excess (else nothing is changed).
CREATE FUNCTION "dossard_gap_breaks"(points jsonb, measured double precision) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  steps double precision[];
  idxs int[];
  excess double precision;
  tolerance double precision := greatest(50, 0.01 * coalesce(measured, 0));
  slack double precision := greatest(100, 0.05 * coalesce(measured, 0));
  found int[] := '{}';
  k int := 1;
BEGIN
  IF measured IS NULL OR measured <= 0 OR jsonb_typeof(points) <> 'array' OR jsonb_array_length(points) < 3 THEN
    RETURN '[]'::jsonb;
  END IF;
  SELECT array_agg(len ORDER BY len DESC), array_agg(idx ORDER BY len DESC) INTO steps, idxs
  FROM (
    SELECT (ord - 1)::int AS idx,
      2 * 6371008.8 * asin(least(1, sqrt(
        sin(radians(lat - lag(lat) OVER w) / 2) ^ 2
        + cos(radians(lag(lat) OVER w)) * cos(radians(lat)) * sin(radians(lng - lag(lng) OVER w) / 2) ^ 2))) AS len
    FROM (SELECT ord, (pt->>0)::float8 AS lng, (pt->>1)::float8 AS lat
          FROM jsonb_array_elements(points) WITH ORDINALITY AS e(pt, ord)) p
    WINDOW w AS (ORDER BY ord)
  ) s
  WHERE idx > 0;
  excess := (SELECT sum(x) FROM unnest(steps) AS x) - measured;
  WHILE excess > tolerance AND k <= coalesce(array_length(steps, 1), 0) LOOP
    EXIT WHEN steps[k] < 100;
    IF steps[k] <= excess + slack THEN
      found := found || idxs[k];
      excess := excess - steps[k];
    END IF;
    k := k + 1;
  END LOOP;
  IF excess > tolerance OR excess < -slack THEN
    RETURN '[]'::jsonb;
  END IF;
  RETURN to_jsonb(ARRAY(SELECT unnest(found) ORDER BY 1));
END $$;--> statement-breakpoint
UPDATE "tracks" t SET "breaks" = x."breaks"
FROM (SELECT "id", "dossard_gap_breaks"("points", "distance") AS "breaks" FROM "tracks") x
WHERE x."id" = t."id" AND x."breaks" <> '[]'::jsonb;--> statement-breakpoint
UPDATE "activity_streams" s SET "breaks" = x."breaks"
FROM (SELECT s2."activity_id", "dossard_gap_breaks"(s2."points", a."distance") AS "breaks"
      FROM "activity_streams" s2 JOIN "activities" a ON a."id" = s2."activity_id" AND a."provider" = 'file') x
WHERE x."activity_id" = s."activity_id" AND x."breaks" <> '[]'::jsonb;--> statement-breakpoint
DROP FUNCTION "dossard_gap_breaks"(jsonb, double precision);
