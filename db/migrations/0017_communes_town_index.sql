-- A member's town (users.city, as typed) is matched to a commune by its name without accents or
-- case (the community timeline's "near you"): one index lookup instead of unaccenting every
-- commune's name at each request.
CREATE INDEX IF NOT EXISTS "communes_name_unaccent_idx" ON "communes" USING btree (immutable_unaccent(lower("name")));
