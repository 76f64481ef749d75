-- Issue 31: trusted sign-in devices, random preview file names for share links, one "open" an hour per visit.
CREATE TABLE `trusted_devices` (
	`id` text PRIMARY KEY NOT NULL,
	`account` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `trusted_devices_account_idx` ON `trusted_devices` (`account`);--> statement-breakpoint
ALTER TABLE `share_links` ADD `file_key` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `share_visits` ADD `last_open_at` integer;--> statement-breakpoint
-- Issue 31: every link (and client watermark) gets a random file key; previews made under the
-- old guessable names (wm-{id}) are made again under the new ones.
UPDATE `share_links` SET `file_key` = lower(hex(randomblob(12))) WHERE `file_key` = '';--> statement-breakpoint
UPDATE `jobs` SET `status` = 'queued', `attempts` = 0, `run_after` = 0, `progress` = 0, `lease_owner` = NULL, `lease_expires_at` = NULL, `last_error` = NULL, `finished_at` = NULL WHERE `kind` = 'watermark';
