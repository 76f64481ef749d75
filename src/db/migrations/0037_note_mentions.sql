CREATE TABLE `note_mentions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`timeline_note_id` integer NOT NULL,
	`user_id` text,
	`client_user_id` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`timeline_note_id`) REFERENCES `timeline_notes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_user_id`) REFERENCES `client_users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "note_mentions_one_person_check" CHECK(("note_mentions"."user_id" is null) <> ("note_mentions"."client_user_id" is null))
);
--> statement-breakpoint
CREATE INDEX `note_mentions_note_idx` ON `note_mentions` (`timeline_note_id`);--> statement-breakpoint
CREATE INDEX `note_mentions_user_idx` ON `note_mentions` (`user_id`);--> statement-breakpoint
CREATE INDEX `note_mentions_client_user_idx` ON `note_mentions` (`client_user_id`);