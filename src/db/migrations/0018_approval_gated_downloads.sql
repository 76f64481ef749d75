ALTER TABLE `clients` ADD `downloads_after_approval` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `share_links` ADD `downloads_after_approval` integer DEFAULT false NOT NULL;