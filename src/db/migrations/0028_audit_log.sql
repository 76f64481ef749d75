CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY NOT NULL,
	`at` integer NOT NULL,
	`actor_type` text NOT NULL,
	`actor_key` text NOT NULL,
	`actor_name` text DEFAULT '' NOT NULL,
	`ip` text,
	`agent` text DEFAULT '' NOT NULL,
	`kind` text NOT NULL,
	`object_type` text,
	`object_id` text,
	`object_name` text DEFAULT '' NOT NULL,
	`factor` text,
	`detail` text DEFAULT '' NOT NULL,
	`prev_hash` text NOT NULL,
	`hash` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_kind_idx` ON `audit_log` (`kind`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_actor_idx` ON `audit_log` (`actor_key`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_object_idx` ON `audit_log` (`object_type`,`object_id`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`at`);--> statement-breakpoint
CREATE TABLE `audit_state` (
	`id` integer PRIMARY KEY NOT NULL,
	`head_id` integer DEFAULT 0 NOT NULL,
	`head_hash` text NOT NULL,
	`head_at` integer DEFAULT 0 NOT NULL,
	`anchor_id` integer DEFAULT 0 NOT NULL,
	`anchor_hash` text NOT NULL,
	`pruned_at` integer
);
--> statement-breakpoint
ALTER TABLE `clients` ADD `erased_at` integer;--> statement-breakpoint
INSERT INTO `audit_state` (`id`, `head_id`, `head_hash`, `head_at`, `anchor_id`, `anchor_hash`) VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000', 0, 0, '0000000000000000000000000000000000000000000000000000000000000000');
