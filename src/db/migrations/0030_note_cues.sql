CREATE TABLE `note_cues` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`timeline_note_id` integer,
	`share_comment_id` integer,
	`track_id` integer,
	`revision_id` integer,
	`start_ms` integer NOT NULL,
	`end_ms` integer NOT NULL,
	`cue_text` text NOT NULL,
	`proposal` text,
	`accepted_revision_id` integer,
	`accepted_at` integer,
	`accepted_by` text,
	FOREIGN KEY (`timeline_note_id`) REFERENCES `timeline_notes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`share_comment_id`) REFERENCES `share_comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`track_id`) REFERENCES `caption_tracks`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`revision_id`) REFERENCES `caption_revisions`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`accepted_revision_id`) REFERENCES `caption_revisions`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`accepted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "note_cues_one_note_check" CHECK(("note_cues"."timeline_note_id" is null) <> ("note_cues"."share_comment_id" is null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `note_cues_timeline_note_unique` ON `note_cues` (`timeline_note_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `note_cues_share_comment_unique` ON `note_cues` (`share_comment_id`);--> statement-breakpoint
CREATE INDEX `note_cues_track_idx` ON `note_cues` (`track_id`);