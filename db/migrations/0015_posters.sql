CREATE TYPE "public"."poster_export_status" AS ENUM('pending', 'running', 'done', 'failed');--> statement-breakpoint
CREATE TABLE "poster_exports" (
	"id" serial PRIMARY KEY NOT NULL,
	"poster_id" integer NOT NULL,
	"format" varchar(8) NOT NULL,
	"revision" integer NOT NULL,
	"status" "poster_export_status" DEFAULT 'pending' NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"file" text,
	"bytes" integer,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "posters" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"design" jsonb NOT NULL,
	"source_type" varchar(16) NOT NULL,
	"source_id" integer NOT NULL,
	"track" jsonb NOT NULL,
	"title" text NOT NULL,
	"is_private" boolean DEFAULT false NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"exported_at" timestamp with time zone,
	"edits_after_export" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "posters_edits" CHECK ("posters"."edits_after_export" >= 0)
);
--> statement-breakpoint
ALTER TABLE "poster_exports" ADD CONSTRAINT "poster_exports_poster_id_posters_id_fk" FOREIGN KEY ("poster_id") REFERENCES "public"."posters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posters" ADD CONSTRAINT "posters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "poster_exports_poster_idx" ON "poster_exports" USING btree ("poster_id","format","created_at");--> statement-breakpoint
CREATE INDEX "posters_user_idx" ON "posters" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE INDEX "posters_gallery_idx" ON "posters" USING btree ("exported_at") WHERE "posters"."deleted_at" IS NULL AND NOT "posters"."is_private";