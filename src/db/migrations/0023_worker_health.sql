CREATE TABLE `worker_heartbeats` (
	`owner` text PRIMARY KEY NOT NULL,
	`seen_at` integer NOT NULL,
	`ffmpeg` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `jobs` ADD `ffmpeg_threads` integer;