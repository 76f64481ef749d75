-- Issue 56: second factors. Authenticator apps (TOTP, secret encrypted with a key derived from
-- the server key), single-use recovery codes (SHA-256), sign-ins awaiting their second factor,
-- the factor each session was made with, "trust this browser" on device cookies, and the
-- per-role policy that requires a second factor.
CREATE TABLE `pending_sign_ins` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`client_user_id` integer,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_user_id`) REFERENCES `client_users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "pending_sign_ins_one_owner" CHECK(("pending_sign_ins"."user_id" IS NULL) <> ("pending_sign_ins"."client_user_id" IS NULL))
);
--> statement-breakpoint
CREATE INDEX `pending_sign_ins_user_idx` ON `pending_sign_ins` (`user_id`);--> statement-breakpoint
CREATE INDEX `pending_sign_ins_client_user_idx` ON `pending_sign_ins` (`client_user_id`);--> statement-breakpoint
CREATE TABLE `recovery_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text,
	`client_user_id` integer,
	`code_hash` text NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_user_id`) REFERENCES `client_users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "recovery_codes_one_owner" CHECK(("recovery_codes"."user_id" IS NULL) <> ("recovery_codes"."client_user_id" IS NULL))
);
--> statement-breakpoint
CREATE INDEX `recovery_codes_user_idx` ON `recovery_codes` (`user_id`);--> statement-breakpoint
CREATE INDEX `recovery_codes_client_user_idx` ON `recovery_codes` (`client_user_id`);--> statement-breakpoint
CREATE TABLE `totp_factors` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text,
	`client_user_id` integer,
	`secret_enc` text NOT NULL,
	`confirmed_at` integer,
	`last_used_step` integer,
	`last_used_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_user_id`) REFERENCES `client_users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "totp_factors_one_owner" CHECK(("totp_factors"."user_id" IS NULL) <> ("totp_factors"."client_user_id" IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `totp_factors_user_idx` ON `totp_factors` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `totp_factors_client_user_idx` ON `totp_factors` (`client_user_id`);--> statement-breakpoint
ALTER TABLE `client_sessions` ADD `second_factor` text;--> statement-breakpoint
ALTER TABLE `roles` ADD `requires_second_factor` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `staff_sessions` ADD `second_factor` text;--> statement-breakpoint
ALTER TABLE `trusted_devices` ADD `second_factor_until` integer;