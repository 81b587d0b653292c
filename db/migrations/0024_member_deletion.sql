-- A member deleted by an admin (GDPR, decision 048): the row stays, every personal field cleared,
-- for the orders that keep their buyer's account (orders.user_id is ON DELETE RESTRICT).
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;
