-- Issue 29: exact note times (ms) and range ends, drawings, staff notes (internal or not) in
-- timeline_notes, staff replies to and resolution of share-link comments.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_media_replies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`feedback_id` integer,
	`timeline_note_id` integer,
	`share_comment_id` integer,
	`staff_user_id` text,
	`client_user_id` integer,
	`author_name` text NOT NULL,
	`by_staff` integer DEFAULT false NOT NULL,
	`reply_text` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`feedback_id`) REFERENCES `client_feedback`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`timeline_note_id`) REFERENCES `timeline_notes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`share_comment_id`) REFERENCES `share_comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`staff_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`client_user_id`) REFERENCES `client_users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "media_replies_parent_check" CHECK(("__new_media_replies"."feedback_id" IS NOT NULL) + ("__new_media_replies"."timeline_note_id" IS NOT NULL) + ("__new_media_replies"."share_comment_id" IS NOT NULL) = 1)
);
--> statement-breakpoint
INSERT INTO `__new_media_replies`("id", "feedback_id", "timeline_note_id", "staff_user_id", "client_user_id", "author_name", "by_staff", "reply_text", "created_at") SELECT "id", "feedback_id", "timeline_note_id", "staff_user_id", "client_user_id", "author_name", "by_staff", "reply_text", "created_at" FROM `media_replies`;--> statement-breakpoint
DROP TABLE `media_replies`;--> statement-breakpoint
ALTER TABLE `__new_media_replies` RENAME TO `media_replies`;--> statement-breakpoint
CREATE INDEX `media_replies_feedback_idx` ON `media_replies` (`feedback_id`);--> statement-breakpoint
CREATE INDEX `media_replies_note_idx` ON `media_replies` (`timeline_note_id`);--> statement-breakpoint
CREATE INDEX `media_replies_share_comment_idx` ON `media_replies` (`share_comment_id`);--> statement-breakpoint
CREATE TABLE `__new_timeline_notes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`media_id` integer NOT NULL,
	`client_user_id` integer,
	`timestamp_seconds` integer NOT NULL,
	`note_text` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`version_id` integer,
	`resolved_at` integer,
	`resolved_by` text,
	`timestamp_ms` integer,
	`end_ms` integer,
	`shapes` text,
	`staff_user_id` text,
	`by_staff` integer DEFAULT false NOT NULL,
	`author_name` text DEFAULT '' NOT NULL,
	`internal` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`media_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_user_id`) REFERENCES `client_users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`version_id`) REFERENCES `media_versions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`resolved_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`staff_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "timeline_notes_timestamp_check" CHECK("__new_timeline_notes"."timestamp_seconds" >= 0),
	CONSTRAINT "timeline_notes_author_check" CHECK("__new_timeline_notes"."by_staff" = 1 OR "__new_timeline_notes"."client_user_id" IS NOT NULL)
);
--> statement-breakpoint
INSERT INTO `__new_timeline_notes`("id", "media_id", "client_user_id", "timestamp_seconds", "note_text", "created_at", "version_id", "resolved_at", "resolved_by") SELECT "id", "media_id", "client_user_id", "timestamp_seconds", "note_text", "created_at", "version_id", "resolved_at", "resolved_by" FROM `timeline_notes`;--> statement-breakpoint
DROP TABLE `timeline_notes`;--> statement-breakpoint
ALTER TABLE `__new_timeline_notes` RENAME TO `timeline_notes`;--> statement-breakpoint
CREATE INDEX `timeline_notes_version_idx` ON `timeline_notes` (`version_id`);--> statement-breakpoint
CREATE INDEX `timeline_notes_media_idx` ON `timeline_notes` (`media_id`);--> statement-breakpoint
CREATE INDEX `timeline_notes_user_idx` ON `timeline_notes` (`client_user_id`);--> statement-breakpoint
ALTER TABLE `share_comments` ADD `timestamp_ms` integer;--> statement-breakpoint
ALTER TABLE `share_comments` ADD `end_ms` integer;--> statement-breakpoint
ALTER TABLE `share_comments` ADD `shapes` text;--> statement-breakpoint
ALTER TABLE `share_comments` ADD `resolved_at` integer;--> statement-breakpoint
ALTER TABLE `share_comments` ADD `resolved_by` text REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
-- The rebuild of timeline_notes dropped its triggers: the same ones again (0002, 0011).
CREATE TRIGGER IF NOT EXISTS `timeline_notes_ai_library_version` AFTER INSERT ON `timeline_notes` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `timeline_notes_au_library_version` AFTER UPDATE ON `timeline_notes` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `timeline_notes_ad_library_version` AFTER DELETE ON `timeline_notes` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `timeline_notes_ai_version` AFTER INSERT ON `timeline_notes` WHEN NEW.`version_id` IS NULL BEGIN
  UPDATE `timeline_notes` SET `version_id` = (SELECT v.`id` FROM `media_versions` v JOIN `media` m ON m.`storage_key` = v.`storage_key` WHERE m.`id` = NEW.`media_id`) WHERE `id` = NEW.`id`;
END;--> statement-breakpoint
-- Existing notes: the exact time is their whole seconds × 1000 (rows outside 0..24 h, written
-- before input was bounded, stay null and are read as their clamped seconds × 1000).
UPDATE `timeline_notes` SET `timestamp_ms` = `timestamp_seconds` * 1000 WHERE typeof(`timestamp_seconds`) = 'integer' AND `timestamp_seconds` BETWEEN 0 AND 86400;--> statement-breakpoint
UPDATE `share_comments` SET `timestamp_ms` = `timestamp_seconds` * 1000 WHERE typeof(`timestamp_seconds`) = 'integer' AND `timestamp_seconds` BETWEEN 0 AND 86400;--> statement-breakpoint
PRAGMA foreign_keys=ON;
