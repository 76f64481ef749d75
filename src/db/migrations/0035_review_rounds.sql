CREATE TABLE `review_decisions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`stage_id` integer NOT NULL,
	`reviewer_id` integer NOT NULL,
	`version_id` integer NOT NULL,
	`decision` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`replaced_at` integer,
	FOREIGN KEY (`stage_id`) REFERENCES `review_stages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reviewer_id`) REFERENCES `review_stage_reviewers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`version_id`) REFERENCES `media_versions`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "review_decisions_decision_check" CHECK("review_decisions"."decision" in ('approve', 'approve_with_changes', 'request_changes'))
);
--> statement-breakpoint
CREATE INDEX `review_decisions_stage_idx` ON `review_decisions` (`stage_id`,`version_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `review_decisions_one_standing` ON `review_decisions` (`reviewer_id`,`version_id`) WHERE replaced_at is null;--> statement-breakpoint
CREATE TABLE `review_rounds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`media_id` integer NOT NULL,
	`name` text NOT NULL,
	`origin` text DEFAULT 'staff' NOT NULL,
	`status` text DEFAULT 'in_review' NOT NULL,
	`created_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`closed_at` integer,
	FOREIGN KEY (`media_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "review_rounds_status_check" CHECK("review_rounds"."status" in ('in_review', 'changes_requested', 'approved', 'cancelled')),
	CONSTRAINT "review_rounds_origin_check" CHECK("review_rounds"."origin" in ('staff', 'approval'))
);
--> statement-breakpoint
CREATE INDEX `review_rounds_media_idx` ON `review_rounds` (`media_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `review_rounds_one_active` ON `review_rounds` (`media_id`) WHERE status in ('in_review', 'changes_requested');--> statement-breakpoint
CREATE TABLE `review_stage_reviewers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`stage_id` integer NOT NULL,
	`kind` text NOT NULL,
	`user_id` text,
	`client_user_id` integer,
	`guest_name` text,
	`link_id` integer,
	`opened_at` integer,
	`reminded_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`stage_id`) REFERENCES `review_stages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`client_user_id`) REFERENCES `client_users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "review_stage_reviewers_kind_check" CHECK(("review_stage_reviewers"."kind" = 'staff' and "review_stage_reviewers"."user_id" is not null and "review_stage_reviewers"."client_user_id" is null)
        or ("review_stage_reviewers"."kind" = 'client' and "review_stage_reviewers"."user_id" is null)
        or ("review_stage_reviewers"."kind" = 'guest' and "review_stage_reviewers"."user_id" is null and "review_stage_reviewers"."client_user_id" is null and "review_stage_reviewers"."guest_name" is not null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `review_stage_reviewers_staff_unique` ON `review_stage_reviewers` (`stage_id`,`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `review_stage_reviewers_client_unique` ON `review_stage_reviewers` (`stage_id`,`client_user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `review_stage_reviewers_guest_unique` ON `review_stage_reviewers` (`stage_id`,`link_id`,`guest_name`);--> statement-breakpoint
CREATE INDEX `review_stage_reviewers_user_idx` ON `review_stage_reviewers` (`user_id`);--> statement-breakpoint
CREATE INDEX `review_stage_reviewers_client_user_idx` ON `review_stage_reviewers` (`client_user_id`);--> statement-breakpoint
CREATE TABLE `review_stages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`round_id` integer NOT NULL,
	`position` integer NOT NULL,
	`name` text NOT NULL,
	`rule` text DEFAULT 'all' NOT NULL,
	`approver_id` integer,
	`due_at` integer,
	`status` text DEFAULT 'waiting' NOT NULL,
	`opened_at` integer,
	`closed_at` integer,
	`closed_version_id` integer,
	FOREIGN KEY (`round_id`) REFERENCES `review_rounds`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`closed_version_id`) REFERENCES `media_versions`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "review_stages_rule_check" CHECK("review_stages"."rule" in ('all', 'any', 'approver')),
	CONSTRAINT "review_stages_status_check" CHECK("review_stages"."status" in ('waiting', 'open', 'closed')),
	CONSTRAINT "review_stages_position_check" CHECK("review_stages"."position" between 1 and 5)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `review_stages_position_unique` ON `review_stages` (`round_id`,`position`);--> statement-breakpoint
CREATE TABLE `review_templates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`stages` text NOT NULL,
	`created_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `review_templates_name_unique` ON `review_templates` (`name`);--> statement-breakpoint
-- Issue 57: every item whose client decided on a version gets its one-stage "Client approval"
-- round, with a decision per decided version (who, what, the note, when), so the history is
-- kept as rounds. The round's status is the current version's decision.
INSERT INTO `review_rounds` (`media_id`, `name`, `origin`, `status`, `created_at`, `updated_at`)
SELECT mv.`media_id`, 'Client approval', 'approval',
  coalesce((SELECT c.`approval_status` FROM `media_versions` c JOIN `media` m ON m.`id` = c.`media_id` AND m.`storage_key` = c.`storage_key` WHERE c.`media_id` = mv.`media_id`), 'in_review'),
  min(coalesce(mv.`approval_at`, mv.`created_at`)), max(coalesce(mv.`approval_at`, mv.`created_at`))
FROM `media_versions` mv WHERE mv.`approval_status` <> 'in_review' GROUP BY mv.`media_id`;
--> statement-breakpoint
INSERT INTO `review_stages` (`round_id`, `position`, `name`, `rule`, `status`, `opened_at`)
SELECT r.`id`, 1, 'Client approval', 'any', 'open', r.`created_at` FROM `review_rounds` r WHERE r.`origin` = 'approval';
--> statement-breakpoint
-- One reviewer per decider: a client login, a link guest (name and link), or, for decisions
-- recorded before the decider was kept, "the client" (no login named).
INSERT INTO `review_stage_reviewers` (`stage_id`, `kind`, `client_user_id`, `guest_name`, `link_id`, `opened_at`, `created_at`)
SELECT DISTINCT s.`id`,
  CASE WHEN mv.`approval_by` IS NULL AND mv.`approval_guest` IS NOT NULL THEN 'guest' ELSE 'client' END,
  mv.`approval_by`,
  CASE WHEN mv.`approval_by` IS NULL THEN mv.`approval_guest` END,
  CASE WHEN mv.`approval_by` IS NULL AND mv.`approval_guest` IS NOT NULL THEN mv.`approval_link_id` END,
  NULL, s.`opened_at`
FROM `media_versions` mv
JOIN `review_rounds` r ON r.`media_id` = mv.`media_id` AND r.`origin` = 'approval'
JOIN `review_stages` s ON s.`round_id` = r.`id`
WHERE mv.`approval_status` <> 'in_review';
--> statement-breakpoint
INSERT INTO `review_decisions` (`stage_id`, `reviewer_id`, `version_id`, `decision`, `note`, `created_at`)
SELECT s.`id`, rv.`id`, mv.`id`,
  CASE mv.`approval_status` WHEN 'approved' THEN 'approve' ELSE 'request_changes' END,
  coalesce(mv.`approval_note`, ''), coalesce(mv.`approval_at`, mv.`created_at`)
FROM `media_versions` mv
JOIN `review_rounds` r ON r.`media_id` = mv.`media_id` AND r.`origin` = 'approval'
JOIN `review_stages` s ON s.`round_id` = r.`id`
JOIN `review_stage_reviewers` rv ON rv.`stage_id` = s.`id`
  AND rv.`client_user_id` IS mv.`approval_by`
  AND rv.`guest_name` IS (CASE WHEN mv.`approval_by` IS NULL THEN mv.`approval_guest` END)
  AND rv.`link_id` IS (CASE WHEN mv.`approval_by` IS NULL AND mv.`approval_guest` IS NOT NULL THEN mv.`approval_link_id` END)
WHERE mv.`approval_status` <> 'in_review';
