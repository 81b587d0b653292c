CREATE TYPE "public"."activity_provider" AS ENUM('strava', 'file');--> statement-breakpoint
CREATE TYPE "public"."strava_sync_state" AS ENUM('idle', 'queued', 'syncing', 'waiting', 'failed');--> statement-breakpoint
CREATE TABLE "activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"provider" "activity_provider" NOT NULL,
	"external_id" varchar(32),
	"file_kind" varchar(8),
	"name" text NOT NULL,
	"sport" varchar(16) NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"distance" integer DEFAULT 0 NOT NULL,
	"moving_time" integer,
	"elapsed_time" integer,
	"elevation_gain" integer,
	"elevation_loss" integer,
	"start_lat" double precision,
	"start_lng" double precision,
	"average_heart_rate" smallint,
	"max_heart_rate" smallint,
	"course_id" integer,
	"result_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_streams" (
	"activity_id" integer PRIMARY KEY NOT NULL,
	"points" jsonb NOT NULL,
	"profile" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"splits" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"heart_rate" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_rate_limits" (
	"provider" varchar(16) PRIMARY KEY NOT NULL,
	"short_limit" integer NOT NULL,
	"short_usage" integer DEFAULT 0 NOT NULL,
	"short_window" timestamp with time zone NOT NULL,
	"daily_limit" integer NOT NULL,
	"daily_usage" integer DEFAULT 0 NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"last_refused_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "strava_connections" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"athlete_id" bigint NOT NULL,
	"scope" text NOT NULL,
	"access_token" text NOT NULL,
	"refresh_token" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"sync_state" "strava_sync_state" DEFAULT 'idle' NOT NULL,
	"sync_done" integer DEFAULT 0 NOT NULL,
	"sync_page" integer DEFAULT 0 NOT NULL,
	"resume_at" timestamp with time zone,
	"history_done" timestamp with time zone,
	"last_sync_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_result_id_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."results"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_streams" ADD CONSTRAINT "activity_streams_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strava_connections" ADD CONSTRAINT "strava_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activities_user_started_idx" ON "activities" USING btree ("user_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "activities_external_idx" ON "activities" USING btree ("user_id","provider","external_id") WHERE "activities"."external_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "strava_connections_athlete_idx" ON "strava_connections" USING btree ("athlete_id");