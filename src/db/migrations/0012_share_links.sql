-- Share links, their visitors, access log and guest comments; watermark jobs (issue 17).
CREATE TABLE `share_access_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`link_id` integer NOT NULL,
	`media_id` integer,
	`action` text NOT NULL,
	`ip` text,
	`guest_name` text DEFAULT '' NOT NULL,
	`detail` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`link_id`) REFERENCES `share_links`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`media_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `share_access_log_link_idx` ON `share_access_log` (`link_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `share_comments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`link_id` integer NOT NULL,
	`media_id` integer NOT NULL,
	`version_id` integer,
	`guest_name` text NOT NULL,
	`kind` text NOT NULL,
	`rating` integer,
	`timestamp_seconds` integer,
	`text` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`link_id`) REFERENCES `share_links`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`media_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`version_id`) REFERENCES `media_versions`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "share_comments_kind_check" CHECK("share_comments"."kind" in ('feedback', 'note'))
);
--> statement-breakpoint
CREATE INDEX `share_comments_media_idx` ON `share_comments` (`media_id`);--> statement-breakpoint
CREATE INDEX `share_comments_link_idx` ON `share_comments` (`link_id`);--> statement-breakpoint
CREATE TABLE `share_link_items` (
	`link_id` integer NOT NULL,
	`media_id` integer NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`link_id`, `media_id`),
	FOREIGN KEY (`link_id`) REFERENCES `share_links`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`media_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `share_link_items_media_idx` ON `share_link_items` (`media_id`);--> statement-breakpoint
CREATE TABLE `share_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`name` text NOT NULL,
	`password_hash` text,
	`expires_at` integer,
	`revoked_at` integer,
	`allow_comment` integer DEFAULT false NOT NULL,
	`allow_approve` integer DEFAULT false NOT NULL,
	`download` text DEFAULT 'none' NOT NULL,
	`watermark` integer DEFAULT false NOT NULL,
	`watermark_text` text DEFAULT '' NOT NULL,
	`watermark_position` text DEFAULT 'bottom-right' NOT NULL,
	`watermark_opacity` integer DEFAULT 60 NOT NULL,
	`created_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "share_links_download_check" CHECK("share_links"."download" in ('none', 'preview', 'original')),
	CONSTRAINT "share_links_opacity_check" CHECK("share_links"."watermark_opacity" between 10 and 100)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `share_links_token_hash_unique` ON `share_links` (`token_hash`);--> statement-breakpoint
CREATE TABLE `share_visits` (
	`id` text PRIMARY KEY NOT NULL,
	`link_id` integer NOT NULL,
	`guest_name` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`link_id`) REFERENCES `share_links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `share_visits_link_idx` ON `share_visits` (`link_id`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `link_id` integer;--> statement-breakpoint
ALTER TABLE `media_versions` ADD `approval_guest` text;--> statement-breakpoint
ALTER TABLE `media_versions` ADD `approval_link_id` integer;