ALTER TABLE "tracks" ALTER COLUMN "elevation_gain" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "tracks" ALTER COLUMN "elevation_loss" DROP NOT NULL;