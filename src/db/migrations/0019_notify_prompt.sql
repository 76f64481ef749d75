ALTER TABLE `media_versions` ADD `announce_when_ready` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `notification_events` ADD `note_ms` integer;--> statement-breakpoint
ALTER TABLE `notification_events` ADD `note_line` text;--> statement-breakpoint
ALTER TABLE `users` ADD `notify_ask_since` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `notify_prompted_at` integer;