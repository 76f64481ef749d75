-- Version stacks, approval, replies and resolved notes (issue 16). drizzle-kit writes added
-- columns' references without ON DELETE; added here to match the schema.
CREATE TABLE `media_replies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`feedback_id` integer,
	`timeline_note_id` integer,
	`staff_user_id` text,
	`client_user_id` integer,
	`author_name` text NOT NULL,
	`by_staff` integer DEFAULT false NOT NULL,
	`reply_text` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`feedback_id`) REFERENCES `client_feedback`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`timeline_note_id`) REFERENCES `timeline_notes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`staff_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`client_user_id`) REFERENCES `client_users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "media_replies_parent_check" CHECK(("media_replies"."feedback_id" IS NULL) <> ("media_replies"."timeline_note_id" IS NULL))
);
--> statement-breakpoint
CREATE INDEX `media_replies_feedback_idx` ON `media_replies` (`feedback_id`);--> statement-breakpoint
CREATE INDEX `media_replies_note_idx` ON `media_replies` (`timeline_note_id`);--> statement-breakpoint
CREATE TABLE `media_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`media_id` integer NOT NULL,
	`number` integer NOT NULL,
	`storage_key` text NOT NULL,
	`url` text NOT NULL,
	`poster_url` text,
	`thumbnail_url` text,
	`thumbnail_webp_url` text,
	`webp_url` text,
	`filename` text NOT NULL,
	`file_size` integer NOT NULL,
	`mime_type` text NOT NULL,
	`width` integer,
	`height` integer,
	`duration_seconds` integer,
	`processing_status` text,
	`processing_progress` integer DEFAULT 0 NOT NULL,
	`processing_error` text,
	`renditions` text,
	`sprite_url` text,
	`original_playable` integer DEFAULT false NOT NULL,
	`probe` text,
	`uploaded_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`approval_status` text DEFAULT 'in_review' NOT NULL,
	`approval_note` text,
	`approval_by` integer,
	`approval_at` integer,
	`approval_locked` integer DEFAULT false NOT NULL,
	`locked_by` text,
	`locked_at` integer,
	FOREIGN KEY (`media_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`uploaded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`approval_by`) REFERENCES `client_users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`locked_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "media_versions_approval_check" CHECK("media_versions"."approval_status" in ('in_review', 'approved', 'changes_requested'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `media_versions_storage_key_unique` ON `media_versions` (`storage_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `media_versions_number_unique` ON `media_versions` (`media_id`,`number`);--> statement-breakpoint
ALTER TABLE `client_feedback` ADD `version_id` integer REFERENCES media_versions(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `client_feedback_version_idx` ON `client_feedback` (`version_id`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `version_id` integer REFERENCES media_versions(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `timeline_notes` ADD `version_id` integer REFERENCES media_versions(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `timeline_notes` ADD `resolved_at` integer;--> statement-breakpoint
ALTER TABLE `timeline_notes` ADD `resolved_by` text REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `timeline_notes_version_idx` ON `timeline_notes` (`version_id`);