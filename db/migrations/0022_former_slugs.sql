-- Former slugs (issue 26 item 6): an event or member renamed keeps its old addresses, which its
-- pages answer with a 301 to the current one. Kept by triggers on the slug columns, so that every
-- rename counts, whichever code (the editor, an admin, a script) makes it.
CREATE TABLE "user_former_slugs" (
	"slug" varchar(80) PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_former_slugs" (
	"slug" text PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_former_slugs" ADD CONSTRAINT "user_former_slugs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_former_slugs" ADD CONSTRAINT "event_former_slugs_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_former_slugs_user_idx" ON "user_former_slugs" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "event_former_slugs_event_idx" ON "event_former_slugs" USING btree ("event_id");
--> statement-breakpoint
-- The slug a row leaves becomes one of its former slugs (taken from any other row that had it:
-- the editor and the accounts never give out another's former slug, so this only happens to a
-- slug written by hand); a slug it takes again stops being a former one. TG_ARGV: the table of
-- former slugs, and its column naming the row.
CREATE OR REPLACE FUNCTION keep_former_slug() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    EXECUTE format('DELETE FROM %I WHERE slug = $1 AND %I = $2', TG_ARGV[0], TG_ARGV[1]) USING NEW.slug, NEW.id;
    EXECUTE format(
      'INSERT INTO %I (slug, %I) VALUES ($1, $2) ON CONFLICT (slug) DO UPDATE SET %I = EXCLUDED.%I, created_at = now()',
      TG_ARGV[0], TG_ARGV[1], TG_ARGV[1], TG_ARGV[1]
    ) USING OLD.slug, OLD.id;
    RETURN NULL;
  END
  $$;
--> statement-breakpoint
CREATE TRIGGER events_keep_former_slug AFTER UPDATE OF slug ON events
  FOR EACH ROW WHEN (OLD.slug IS DISTINCT FROM NEW.slug)
  EXECUTE FUNCTION keep_former_slug('event_former_slugs', 'event_id');
--> statement-breakpoint
CREATE TRIGGER users_keep_former_slug AFTER UPDATE OF slug ON users
  FOR EACH ROW WHEN (OLD.slug IS DISTINCT FROM NEW.slug)
  EXECUTE FUNCTION keep_former_slug('user_former_slugs', 'user_id');
