-- Receipt numbers from a one-row counter taken by UPDATE … RETURNING in the payment's transaction
-- (features/orders/orders.tables.ts receiptCounter) instead of a sequence, which loses the numbers
-- of rolled-back transactions and up to 32 after a crash: the series must have no gap. The counter
-- starts at the last number already given, so existing receipts keep theirs and the next follows.
CREATE TABLE "receipt_counter" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"last_number" integer NOT NULL,
	CONSTRAINT "receipt_counter_one_row" CHECK ("receipt_counter"."id" = 1),
	CONSTRAINT "receipt_counter_positive" CHECK ("receipt_counter"."last_number" >= 0)
);
--> statement-breakpoint
INSERT INTO "receipt_counter" ("id", "last_number") SELECT 1, coalesce(max("receipt_number"), 0) FROM "orders";
--> statement-breakpoint
DROP SEQUENCE "public"."receipt_number_seq";
