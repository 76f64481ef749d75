CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`media_id` integer NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`max_attempts` integer DEFAULT 3 NOT NULL,
	`run_after` integer DEFAULT 0 NOT NULL,
	`lease_owner` text,
	`lease_expires_at` integer,
	`progress` integer DEFAULT 0 NOT NULL,
	`path` text,
	`last_error` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`media_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `jobs_claim_idx` ON `jobs` (`status`,`run_after`);--> statement-breakpoint
CREATE INDEX `jobs_media_idx` ON `jobs` (`media_id`);--> statement-breakpoint
ALTER TABLE `media` ADD `processing_status` text;--> statement-breakpoint
ALTER TABLE `media` ADD `processing_progress` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `media` ADD `processing_error` text;--> statement-breakpoint
ALTER TABLE `media` ADD `renditions` text;--> statement-breakpoint
ALTER TABLE `media` ADD `sprite_url` text;--> statement-breakpoint
ALTER TABLE `media` ADD `original_playable` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `media` ADD `probe` text;