-- What an activity's start knows (issue 26 item 5): "time" (recorded), "day" (the day the member
-- gave for a file without times), "none". Files without times used to be dated at their upload
-- (started_at = the upload's instant, no elapsed time): their day is not known, they are never
-- matched to a race, and their page asks the member for it.
ALTER TABLE "activities" ADD COLUMN "start_precision" varchar(8) DEFAULT 'time' NOT NULL;--> statement-breakpoint
UPDATE "activities" SET "start_precision" = 'none' WHERE "provider" = 'file' AND "elapsed_time" IS NULL;
