CREATE TABLE "page_views" (
	"day" date NOT NULL,
	"path" varchar(200) NOT NULL,
	"referrer_host" varchar(100) DEFAULT '' NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "page_views_day_path_referrer_host_pk" PRIMARY KEY("day","path","referrer_host")
);
--> statement-breakpoint
CREATE TABLE "traffic_hours" (
	"hour" timestamp with time zone PRIMARY KEY NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"server_errors" integer DEFAULT 0 NOT NULL,
	"client_errors" integer DEFAULT 0 NOT NULL,
	"latency_buckets" integer[] NOT NULL,
	"cpu_sum" double precision DEFAULT 0 NOT NULL,
	"memory_sum" double precision DEFAULT 0 NOT NULL,
	"samples" integer DEFAULT 0 NOT NULL
);
