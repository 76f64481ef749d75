CREATE TABLE `galleries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`cover_media_id` integer,
	`sort_order` text DEFAULT 'capture' NOT NULL,
	`download_tier` text DEFAULT 'web2048' NOT NULL,
	`high_res_edge` integer DEFAULT 3600 NOT NULL,
	`high_res_cap` integer,
	`download_pin` text,
	`expires_on` text,
	`expires_at` integer,
	`reminder_days` integer,
	`reminded_for` text,
	`created_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`cover_media_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "galleries_sort_check" CHECK("galleries"."sort_order" in ('capture', 'filename', 'manual')),
	CONSTRAINT "galleries_tier_check" CHECK("galleries"."download_tier" in ('off', 'web1024', 'web2048', 'highres', 'original'))
);
--> statement-breakpoint
CREATE INDEX `galleries_expires_idx` ON `galleries` (`expires_at`);--> statement-breakpoint
CREATE TABLE `gallery_clients` (
	`gallery_id` integer NOT NULL,
	`client_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`gallery_id`, `client_id`),
	FOREIGN KEY (`gallery_id`) REFERENCES `galleries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `gallery_clients_client_idx` ON `gallery_clients` (`client_id`);--> statement-breakpoint
CREATE TABLE `gallery_downloads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`gallery_id` integer NOT NULL,
	`image_id` integer,
	`media_id` integer,
	`client_id` integer,
	`client_user_id` integer,
	`link_id` integer,
	`who` text DEFAULT '' NOT NULL,
	`tier` text NOT NULL,
	`zip_id` text,
	`file_name` text DEFAULT '' NOT NULL,
	`ip` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`gallery_id`) REFERENCES `galleries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`image_id`) REFERENCES `gallery_images`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`media_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_user_id`) REFERENCES `client_users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`link_id`) REFERENCES `share_links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `gallery_downloads_gallery_idx` ON `gallery_downloads` (`gallery_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `gallery_downloads_client_idx` ON `gallery_downloads` (`gallery_id`,`client_id`,`tier`);--> statement-breakpoint
CREATE INDEX `gallery_downloads_link_idx` ON `gallery_downloads` (`gallery_id`,`link_id`,`tier`);--> statement-breakpoint
CREATE TABLE `gallery_images` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`gallery_id` integer NOT NULL,
	`media_id` integer NOT NULL,
	`set_id` integer,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`gallery_id`) REFERENCES `galleries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`media_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`set_id`) REFERENCES `gallery_sets`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gallery_images_unique` ON `gallery_images` (`gallery_id`,`media_id`);--> statement-breakpoint
CREATE INDEX `gallery_images_media_idx` ON `gallery_images` (`media_id`);--> statement-breakpoint
CREATE TABLE `gallery_pin_passes` (
	`id` text PRIMARY KEY NOT NULL,
	`gallery_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`gallery_id`) REFERENCES `galleries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `gallery_pin_passes_gallery_idx` ON `gallery_pin_passes` (`gallery_id`);--> statement-breakpoint
CREATE TABLE `gallery_sets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`gallery_id` integer NOT NULL,
	`name` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`download_tier` text,
	FOREIGN KEY (`gallery_id`) REFERENCES `galleries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `gallery_sets_gallery_idx` ON `gallery_sets` (`gallery_id`,`position`);--> statement-breakpoint
CREATE TABLE `proof_marks` (
	`viewer_id` integer NOT NULL,
	`image_id` integer NOT NULL,
	`heart` integer DEFAULT false NOT NULL,
	`stars` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`viewer_id`, `image_id`),
	FOREIGN KEY (`viewer_id`) REFERENCES `proof_viewers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`image_id`) REFERENCES `gallery_images`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "proof_marks_stars_check" CHECK("proof_marks"."stars" between 0 and 5)
);
--> statement-breakpoint
CREATE INDEX `proof_marks_image_idx` ON `proof_marks` (`image_id`);--> statement-breakpoint
CREATE TABLE `proof_viewers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`gallery_id` integer NOT NULL,
	`client_user_id` integer,
	`link_id` integer,
	`token_hash` text,
	`name` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`gallery_id`) REFERENCES `galleries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_user_id`) REFERENCES `client_users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`link_id`) REFERENCES `share_links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `proof_viewers_token_hash_unique` ON `proof_viewers` (`token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `proof_viewers_client_unique` ON `proof_viewers` (`gallery_id`,`client_user_id`);--> statement-breakpoint
CREATE INDEX `proof_viewers_link_idx` ON `proof_viewers` (`link_id`);--> statement-breakpoint
CREATE TABLE `selection_items` (
	`selection_id` integer NOT NULL,
	`image_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`selection_id`, `image_id`),
	FOREIGN KEY (`selection_id`) REFERENCES `selections`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`image_id`) REFERENCES `gallery_images`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `selection_items_image_idx` ON `selection_items` (`image_id`);--> statement-breakpoint
CREATE TABLE `selection_lists` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`gallery_id` integer NOT NULL,
	`name` text NOT NULL,
	`min_count` integer DEFAULT 0 NOT NULL,
	`max_count` integer,
	`position` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`gallery_id`) REFERENCES `galleries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `selection_lists_gallery_idx` ON `selection_lists` (`gallery_id`);--> statement-breakpoint
CREATE TABLE `selections` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`list_id` integer NOT NULL,
	`viewer_id` integer NOT NULL,
	`submitted_at` integer,
	`reopened_at` integer,
	`reopen_note` text,
	`reopened_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`list_id`) REFERENCES `selection_lists`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`viewer_id`) REFERENCES `proof_viewers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reopened_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `selections_unique` ON `selections` (`list_id`,`viewer_id`);--> statement-breakpoint
CREATE INDEX `selections_viewer_idx` ON `selections` (`viewer_id`);--> statement-breakpoint
CREATE TABLE `stills` (
	`version_id` integer PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`captured_at` integer,
	`camera` text,
	`lens` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`version_id`) REFERENCES `media_versions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `share_links` ADD `gallery_id` integer REFERENCES galleries(id);--> statement-breakpoint
CREATE INDEX `share_links_gallery_idx` ON `share_links` (`gallery_id`);