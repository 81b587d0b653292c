CREATE TYPE "public"."credit_kind" AS ENUM('free', 'purchase', 'poster', 'adjustment');--> statement-breakpoint
CREATE TYPE "public"."order_status" AS ENUM('created', 'pending', 'failed', 'paid', 'cancelled', 'deleted');--> statement-breakpoint
CREATE SEQUENCE "public"."receipt_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "credit_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" "credit_kind" NOT NULL,
	"delta" integer NOT NULL,
	"order_id" integer,
	"poster_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_entries_shape" CHECK (("credit_entries"."kind" = 'free' AND "credit_entries"."delta" = 1)
        OR ("credit_entries"."kind" = 'purchase' AND "credit_entries"."delta" > 0 AND "credit_entries"."order_id" IS NOT NULL)
        OR ("credit_entries"."kind" = 'poster' AND "credit_entries"."delta" = -1 AND "credit_entries"."poster_id" IS NOT NULL)
        OR "credit_entries"."kind" = 'adjustment')
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"user_id" integer NOT NULL,
	"product_id" text NOT NULL,
	"credits" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"vat_rate_bp" integer NOT NULL,
	"currency" text DEFAULT 'eur' NOT NULL,
	"status" "order_status" DEFAULT 'created' NOT NULL,
	"stripe_session_id" text,
	"stripe_payment_intent" text,
	"paid_at" timestamp with time zone,
	"receipt_number" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_amount_positive" CHECK ("orders"."amount_cents" > 0 AND "orders"."credits" >= 0),
	CONSTRAINT "orders_paid_has_receipt" CHECK (("orders"."status" = 'paid') = ("orders"."receipt_number" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"order_id" integer,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_sessions" (
	"session_id" text PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_entries" ADD CONSTRAINT "credit_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD CONSTRAINT "payment_sessions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_entries_user_idx" ON "credit_entries" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_entries_free_idx" ON "credit_entries" USING btree ("user_id") WHERE "credit_entries"."kind" = 'free';--> statement-breakpoint
CREATE UNIQUE INDEX "credit_entries_order_idx" ON "credit_entries" USING btree ("order_id") WHERE "credit_entries"."kind" = 'purchase';--> statement-breakpoint
CREATE UNIQUE INDEX "credit_entries_poster_idx" ON "credit_entries" USING btree ("poster_id") WHERE "credit_entries"."kind" = 'poster';--> statement-breakpoint
CREATE UNIQUE INDEX "orders_uid_idx" ON "orders" USING btree ("uid");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_receipt_number_idx" ON "orders" USING btree ("receipt_number");--> statement-breakpoint
CREATE INDEX "orders_user_idx" ON "orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_status_idx" ON "orders" USING btree ("status");--> statement-breakpoint
CREATE INDEX "payment_sessions_order_idx" ON "payment_sessions" USING btree ("order_id");