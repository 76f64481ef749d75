-- Notifications (issue 17): events (the staff bell lists these), an outbox with one email per
-- recipient (retries with backoff, daily digest, a folder when there is no SMTP_URL), the
-- digest slot shared by all processes, and each person's mode: staff opt in ('off' by
-- default), client logins are on ('immediately') by default.
CREATE TABLE `notification_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`media_id` integer,
	`version_number` integer,
	`client_id` integer,
	`actor` text DEFAULT '' NOT NULL,
	`summary` text NOT NULL,
	`path` text NOT NULL,
	`audience` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`media_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`client_id`) REFERENCES `clients`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "notification_events_audience_check" CHECK("notification_events"."audience" in ('staff', 'client'))
);
--> statement-breakpoint
CREATE INDEX `notification_events_audience_idx` ON `notification_events` (`audience`,`id`);--> statement-breakpoint
CREATE TABLE `notification_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` integer,
	`digest_id` integer,
	`recipient_kind` text NOT NULL,
	`recipient_id` text NOT NULL,
	`recipient_address` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer DEFAULT 0 NOT NULL,
	`lease_owner` text,
	`lease_expires_at` integer,
	`last_error` text,
	`file_path` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`event_id`) REFERENCES `notification_events`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "notification_outbox_status_check" CHECK("notification_outbox"."status" in ('pending', 'sending', 'sent', 'failed', 'held', 'digested', 'written'))
);
--> statement-breakpoint
CREATE INDEX `notification_outbox_due_idx` ON `notification_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `notification_outbox_recipient_idx` ON `notification_outbox` (`recipient_kind`,`recipient_id`,`status`);--> statement-breakpoint
CREATE TABLE `notification_state` (
	`id` integer PRIMARY KEY NOT NULL,
	`digest_slot` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
INSERT INTO `notification_state` (`id`, `digest_slot`) VALUES (1, '');
--> statement-breakpoint
ALTER TABLE `client_users` ADD `notify_mode` text DEFAULT 'immediately' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `notify_mode` text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `bell_seen_id` integer DEFAULT 0 NOT NULL;