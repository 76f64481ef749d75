CREATE TABLE `caption_burns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`track_id` integer NOT NULL,
	`revision_id` integer NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`error` text,
	`created_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`track_id`) REFERENCES `caption_tracks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `caption_burns_track_idx` ON `caption_burns` (`track_id`);--> statement-breakpoint
CREATE TABLE `caption_cues` (
	`revision_id` integer NOT NULL,
	`seq` integer NOT NULL,
	`start_ms` integer NOT NULL,
	`end_ms` integer NOT NULL,
	`text` text NOT NULL,
	`settings` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`revision_id`, `seq`),
	FOREIGN KEY (`revision_id`) REFERENCES `caption_revisions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `caption_revisions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`track_id` integer NOT NULL,
	`number` integer NOT NULL,
	`source` text NOT NULL,
	`format` text NOT NULL,
	`encoding` text NOT NULL,
	`file_name` text DEFAULT '' NOT NULL,
	`original` blob,
	`cue_count` integer NOT NULL,
	`notes` text DEFAULT '[]' NOT NULL,
	`created_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`track_id`) REFERENCES `caption_tracks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "caption_revisions_source_check" CHECK("caption_revisions"."source" in ('uploaded', 'edited', 'embedded'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `caption_revisions_number_unique` ON `caption_revisions` (`track_id`,`number`);--> statement-breakpoint
CREATE TABLE `caption_tracks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`media_id` integer NOT NULL,
	`version_id` integer NOT NULL,
	`language` text NOT NULL,
	`label` text NOT NULL,
	`kind` text NOT NULL,
	`published` integer DEFAULT false NOT NULL,
	`current_revision_id` integer,
	`carried_from` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`media_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`version_id`) REFERENCES `media_versions`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "caption_tracks_kind_check" CHECK("caption_tracks"."kind" in ('subtitles', 'captions', 'forced'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `caption_tracks_unique` ON `caption_tracks` (`version_id`,`language`,`kind`);--> statement-breakpoint
CREATE INDEX `caption_tracks_media_idx` ON `caption_tracks` (`media_id`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `caption_burn_id` integer;