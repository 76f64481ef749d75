CREATE TABLE `media_slug_history` (
	`slug` text PRIMARY KEY NOT NULL,
	`media_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`media_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `media` ADD `slug` text;--> statement-breakpoint
CREATE UNIQUE INDEX `media_slug_unique` ON `media` (`slug`);--> statement-breakpoint
CREATE INDEX `media_slug_missing_idx` ON `media` (`id`) WHERE "media"."slug" is null;