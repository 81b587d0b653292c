-- Claims on results lines wait for the organiser (issue 26, results and claims): a member's "c'est
-- moi" on a line whose name is not theirs is kept here as pending, counts nowhere, and the edition's
-- organiser or an admin approves it (the line becomes the member's) or refuses it. The line's bib and
-- name are kept so that a re-imported file's line takes the claim over (result_id set null first).
CREATE TYPE "public"."result_claim_status" AS ENUM('pending', 'approved', 'refused');--> statement-breakpoint
CREATE TABLE "result_claims" (
	"id" serial PRIMARY KEY NOT NULL,
	"result_id" integer,
	"course_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"status" "result_claim_status" DEFAULT 'pending' NOT NULL,
	"bib" varchar(16),
	"line_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" integer
);
--> statement-breakpoint
ALTER TABLE "result_claims" ADD CONSTRAINT "result_claims_result_id_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."results"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_claims" ADD CONSTRAINT "result_claims_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_claims" ADD CONSTRAINT "result_claims_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_claims" ADD CONSTRAINT "result_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_claims" ADD CONSTRAINT "result_claims_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "result_claims_pending_idx" ON "result_claims" USING btree ("user_id","course_id") WHERE "result_claims"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "result_claims_event_idx" ON "result_claims" USING btree ("event_id","status");--> statement-breakpoint
CREATE INDEX "result_claims_status_idx" ON "result_claims" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "result_claims_result_idx" ON "result_claims" USING btree ("result_id");--> statement-breakpoint
CREATE INDEX "result_claims_course_idx" ON "result_claims" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "result_claims_user_idx" ON "result_claims" USING btree ("user_id");