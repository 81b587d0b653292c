CREATE TYPE "public"."check_status" AS ENUM('to_check', 'checked');--> statement-breakpoint
CREATE TYPE "public"."content_status" AS ENUM('pending', 'active', 'inactive');--> statement-breakpoint
CREATE TYPE "public"."course_type" AS ENUM('race', 'relay', 'team', 'walk', 'kids', 'virtual');--> statement-breakpoint
CREATE TYPE "public"."event_history_type" AS ENUM('creation', 'modification', 'validation', 'activation', 'deactivation', 'modification_request', 'cancellation', 'postponement', 'image_upload', 'facebook_publication', 'publication_date', 'validation_date', 'organizer_validation', 'organizer_validation_sent', 'automatic_copy', 'search_indexing');--> statement-breakpoint
CREATE TYPE "public"."event_scope" AS ENUM('international', 'national', 'regional', 'local');--> statement-breakpoint
CREATE TABLE "course_prices" (
	"id" serial PRIMARY KEY NOT NULL,
	"course_id" integer NOT NULL,
	"label" text NOT NULL,
	"starts_on" date,
	"ends_on" date,
	"price" numeric(8, 2) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "courses" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" "course_type" DEFAULT 'race' NOT NULL,
	"distance" integer,
	"duration" integer,
	"elevation_gain" integer,
	"bib_quota" integer,
	"description" text,
	"start_at" timestamp with time zone,
	"start_place" text,
	"finish_place" text,
	"refuelling_points" integer,
	"mandatory_equipment" text,
	"min_age" integer,
	"itra_points" integer,
	"utmb_index" varchar(16),
	"challenge" text,
	"complete" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_groups_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "event_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"type" "event_history_type" NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_images" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"path" text NOT NULL,
	"width" integer,
	"height" integer,
	"caption" text,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"group_id" integer,
	"name" text NOT NULL,
	"sport_id" integer NOT NULL,
	"description" text,
	"organizer_name" text,
	"is_competition" boolean DEFAULT true NOT NULL,
	"is_owner" boolean DEFAULT false NOT NULL,
	"is_connected" boolean DEFAULT false NOT NULL,
	"contact_email" text,
	"contact_phone" text,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"website" text,
	"registration_url" text,
	"registration_opens_at" timestamp with time zone,
	"live_tracking_url" text,
	"facebook_url" text,
	"instagram_url" text,
	"x_url" text,
	"youtube_url" text,
	"vimeo_url" text,
	"live_video_url" text,
	"address" text,
	"zipcode" varchar(10),
	"city" text,
	"place" text,
	"country_code" varchar(2) DEFAULT 'FR' NOT NULL,
	"commune_code" varchar(5),
	"department_code" varchar(3),
	"region_code" varchar(3),
	"lat" double precision,
	"lng" double precision,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"original_date" date,
	"cancelled" boolean DEFAULT false NOT NULL,
	"postponed" boolean DEFAULT false NOT NULL,
	"scope" "event_scope" DEFAULT 'local' NOT NULL,
	"status" "content_status" DEFAULT 'pending' NOT NULL,
	"check_status" "check_status" DEFAULT 'to_check' NOT NULL,
	"date_confirmed" boolean DEFAULT false NOT NULL,
	"cover_image" text,
	"header_image" text,
	"max_elevation" integer,
	"min_distance" integer,
	"max_distance" integer,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('fr_unaccent', coalesce("name", '')), 'A') || setweight(to_tsvector('fr_unaccent', coalesce("city", '') || ' ' || coalesce("place", '') || ' ' || coalesce("organizer_name", '')), 'B') || setweight(to_tsvector('fr_unaccent', coalesce("description", '')), 'C')) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracks" (
	"id" serial PRIMARY KEY NOT NULL,
	"course_id" integer,
	"name" text NOT NULL,
	"points" jsonb NOT NULL,
	"distance" integer NOT NULL,
	"elevation_gain" integer NOT NULL,
	"elevation_loss" integer NOT NULL,
	"min_elevation" integer,
	"max_elevation" integer,
	"profile" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"start_lat" double precision,
	"start_lng" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "communes" (
	"code" varchar(5) PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"department_code" varchar(3) NOT NULL,
	"region_code" varchar(3) NOT NULL,
	"postal_codes" text[] NOT NULL,
	"population" integer DEFAULT 0 NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"placed_by" varchar(12) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "countries" (
	"code" varchar(2) PRIMARY KEY NOT NULL,
	"name_fr" text NOT NULL,
	"name_en" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "departments" (
	"code" varchar(3) PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"region_code" varchar(3) NOT NULL,
	CONSTRAINT "departments_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "regions" (
	"code" varchar(3) PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	CONSTRAINT "regions_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "sports" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" varchar(32) NOT NULL,
	"slug_fr" text NOT NULL,
	"slug_en" text NOT NULL,
	"name_fr" text NOT NULL,
	"name_en" text NOT NULL,
	"parent_key" varchar(32),
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "sports_key_unique" UNIQUE("key"),
	CONSTRAINT "sports_slug_fr_unique" UNIQUE("slug_fr"),
	CONSTRAINT "sports_slug_en_unique" UNIQUE("slug_en")
);
--> statement-breakpoint
ALTER TABLE "course_prices" ADD CONSTRAINT "course_prices_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_history" ADD CONSTRAINT "event_history_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_images" ADD CONSTRAINT "event_images_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_group_id_event_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."event_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_sport_id_sports_id_fk" FOREIGN KEY ("sport_id") REFERENCES "public"."sports"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_country_code_countries_code_fk" FOREIGN KEY ("country_code") REFERENCES "public"."countries"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_commune_code_communes_code_fk" FOREIGN KEY ("commune_code") REFERENCES "public"."communes"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_department_code_departments_code_fk" FOREIGN KEY ("department_code") REFERENCES "public"."departments"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_region_code_regions_code_fk" FOREIGN KEY ("region_code") REFERENCES "public"."regions"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracks" ADD CONSTRAINT "tracks_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "communes" ADD CONSTRAINT "communes_department_code_departments_code_fk" FOREIGN KEY ("department_code") REFERENCES "public"."departments"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "communes" ADD CONSTRAINT "communes_region_code_regions_code_fk" FOREIGN KEY ("region_code") REFERENCES "public"."regions"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "departments" ADD CONSTRAINT "departments_region_code_regions_code_fk" FOREIGN KEY ("region_code") REFERENCES "public"."regions"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_prices_course_idx" ON "course_prices" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "courses_event_idx" ON "courses" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "courses_distance_idx" ON "courses" USING btree ("distance");--> statement-breakpoint
CREATE INDEX "event_history_event_idx" ON "event_history" USING btree ("event_id","created_at");--> statement-breakpoint
CREATE INDEX "event_images_event_idx" ON "event_images" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "events_slug_idx" ON "events" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "events_start_date_idx" ON "events" USING btree ("start_date");--> statement-breakpoint
CREATE INDEX "events_sport_date_idx" ON "events" USING btree ("sport_id","start_date");--> statement-breakpoint
CREATE INDEX "events_region_date_idx" ON "events" USING btree ("region_code","start_date");--> statement-breakpoint
CREATE INDEX "events_department_date_idx" ON "events" USING btree ("department_code","start_date");--> statement-breakpoint
CREATE INDEX "events_group_idx" ON "events" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "events_search_idx" ON "events" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "events_name_trgm_idx" ON "events" USING gin (immutable_unaccent(lower("name")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "events_city_trgm_idx" ON "events" USING gin (immutable_unaccent(lower("city")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "events_earth_idx" ON "events" USING gist (ll_to_earth("lat", "lng"));--> statement-breakpoint
CREATE INDEX "tracks_course_idx" ON "tracks" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "communes_department_idx" ON "communes" USING btree ("department_code");--> statement-breakpoint
CREATE INDEX "communes_population_idx" ON "communes" USING btree ("population");--> statement-breakpoint
CREATE INDEX "departments_region_idx" ON "departments" USING btree ("region_code");