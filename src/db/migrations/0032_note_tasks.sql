-- Issue 57 item 4: a note made a task (assignee, state), for the editor's checklist per version.
CREATE TABLE `note_tasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`timeline_note_id` integer,
	`share_comment_id` integer,
	`assignee_id` text,
	`state` text DEFAULT 'todo' NOT NULL,
	`created_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`closed_at` integer,
	`closed_by` text,
	FOREIGN KEY (`timeline_note_id`) REFERENCES `timeline_notes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`share_comment_id`) REFERENCES `share_comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`assignee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`closed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "note_tasks_one_note_check" CHECK(("note_tasks"."timeline_note_id" is null) <> ("note_tasks"."share_comment_id" is null)),
	CONSTRAINT "note_tasks_state_check" CHECK("note_tasks"."state" in ('todo', 'done', 'wont_do'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `note_tasks_timeline_note_unique` ON `note_tasks` (`timeline_note_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `note_tasks_share_comment_unique` ON `note_tasks` (`share_comment_id`);--> statement-breakpoint
CREATE INDEX `note_tasks_assignee_idx` ON `note_tasks` (`assignee_id`,`state`);