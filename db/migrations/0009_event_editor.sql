CREATE TABLE "event_change_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"data" jsonb NOT NULL,
	"status" varchar(12) DEFAULT 'pending' NOT NULL,
	"message" text,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_organizers" (
	"event_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"email" text NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_organizers_event_id_user_id_pk" PRIMARY KEY("event_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "organizer_claims" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"email" text NOT NULL,
	"secret_hash" varchar(64) NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "owner_id" integer;--> statement-breakpoint
ALTER TABLE "tracks" ADD COLUMN "uploaded_by" integer;--> statement-breakpoint
ALTER TABLE "event_change_requests" ADD CONSTRAINT "event_change_requests_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_organizers" ADD CONSTRAINT "event_organizers_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizer_claims" ADD CONSTRAINT "organizer_claims_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_change_requests_event_idx" ON "event_change_requests" USING btree ("event_id","status");--> statement-breakpoint
CREATE INDEX "event_organizers_user_idx" ON "event_organizers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "organizer_claims_event_user_idx" ON "organizer_claims" USING btree ("event_id","user_id");--> statement-breakpoint
CREATE INDEX "events_owner_idx" ON "events" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "events_status_idx" ON "events" USING btree ("status","check_status");