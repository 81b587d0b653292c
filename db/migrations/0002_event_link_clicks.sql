CREATE TABLE "event_link_clicks" (
	"event_id" integer NOT NULL,
	"type" varchar(16) NOT NULL,
	"day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "event_link_clicks_event_id_type_day_pk" PRIMARY KEY("event_id","type","day")
);
--> statement-breakpoint
ALTER TABLE "event_link_clicks" ADD CONSTRAINT "event_link_clicks_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;