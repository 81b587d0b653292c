CREATE TYPE "public"."result_import_status" AS ENUM('pending', 'running', 'done', 'failed');--> statement-breakpoint
CREATE TYPE "public"."result_source" AS ENUM('import', 'manual');--> statement-breakpoint
CREATE TYPE "public"."result_status" AS ENUM('finished', 'dnf', 'dns', 'dsq');--> statement-breakpoint
CREATE TABLE "result_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"course_id" integer NOT NULL,
	"user_id" integer,
	"status" "result_import_status" DEFAULT 'pending' NOT NULL,
	"file_name" text,
	"mapping" jsonb,
	"payload" jsonb,
	"total_rows" integer DEFAULT 0 NOT NULL,
	"processed_rows" integer DEFAULT 0 NOT NULL,
	"error" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "results" (
	"id" serial PRIMARY KEY NOT NULL,
	"course_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"import_id" integer,
	"source" "result_source" DEFAULT 'import' NOT NULL,
	"status" "result_status" DEFAULT 'finished' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"rank" integer,
	"sex_rank" integer,
	"category_rank" integer,
	"bib" varchar(16),
	"name" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"club" text,
	"sex" varchar(1),
	"country" varchar(3),
	"category" varchar(24),
	"time_ms" integer,
	"net_time_ms" integer,
	"pace_s_per_km" integer,
	"user_id" integer,
	"claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "results_sex" CHECK ("results"."sex" IS NULL OR "results"."sex" IN ('M', 'F')),
	CONSTRAINT "results_time_positive" CHECK (coalesce("results"."time_ms", 1) > 0 AND coalesce("results"."net_time_ms", 1) > 0)
);
--> statement-breakpoint
CREATE TABLE "user_badges" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"code" varchar(64) NOT NULL,
	"result_id" integer,
	"level" smallint,
	"awarded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "result_imports" ADD CONSTRAINT "result_imports_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_imports" ADD CONSTRAINT "result_imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_import_id_result_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."result_imports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_badges" ADD CONSTRAINT "user_badges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_badges" ADD CONSTRAINT "user_badges_result_id_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "result_imports_course_idx" ON "result_imports" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "results_course_rank_idx" ON "results" USING btree ("course_id","status","rank","position");--> statement-breakpoint
CREATE INDEX "results_course_sex_idx" ON "results" USING btree ("course_id","sex","sex_rank");--> statement-breakpoint
CREATE INDEX "results_course_category_idx" ON "results" USING btree ("course_id","category","category_rank");--> statement-breakpoint
CREATE INDEX "results_event_idx" ON "results" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "results_user_idx" ON "results" USING btree ("user_id") WHERE "results"."user_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "results_name_trgm_idx" ON "results" USING gin (immutable_unaccent(lower("name")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "results_course_bib_idx" ON "results" USING btree ("course_id","bib");--> statement-breakpoint
CREATE UNIQUE INDEX "results_user_course_idx" ON "results" USING btree ("user_id","course_id") WHERE "results"."user_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "user_badges_user_code_idx" ON "user_badges" USING btree ("user_id","code");--> statement-breakpoint
CREATE INDEX "user_badges_awarded_idx" ON "user_badges" USING btree ("awarded_at");