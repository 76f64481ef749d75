CREATE TABLE `live_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`topic` text NOT NULL,
	`audience` text NOT NULL,
	`permission` text,
	`media_id` integer,
	`version_id` integer,
	`client_id` integer,
	`client_user_id` integer,
	`link_id` integer,
	`session_id` integer,
	`data` text DEFAULT '{}' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `live_events_created_idx` ON `live_events` (`created_at`);--> statement-breakpoint
CREATE TABLE `live_participants` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` integer NOT NULL,
	`key` text NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`last_seen_at` integer NOT NULL,
	`left_at` integer,
	`frame` integer,
	`following` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `live_sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `live_participants_unique` ON `live_participants` (`session_id`,`key`);--> statement-breakpoint
CREATE TABLE `live_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`media_id` integer NOT NULL,
	`started_by` text,
	`started_by_name` text NOT NULL,
	`presenter` text NOT NULL,
	`state` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`ended_at` integer,
	`end_reason` text,
	`summary` text,
	FOREIGN KEY (`media_id`) REFERENCES `media`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`started_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `live_sessions_media_idx` ON `live_sessions` (`media_id`,`ended_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `live_sessions_open_unique` ON `live_sessions` (`media_id`) WHERE "live_sessions"."ended_at" is null;--> statement-breakpoint
-- Issue 41: the triggers that publish what changed into live_events, whoever writes it (a web
-- process, a worker, a script). Audiences: 'staff' (staff holding `permission`, view:media when
-- null), 'item' (staff, the item's clients and the links holding it), 'owner' (staff and the one
-- client login or link that wrote it), 'client' (staff and one client), 'link' (staff with
-- share:media and the link's visitors); topics starting sys- are never sent (they close or
-- refresh channels). A table rebuilt by a later migration loses its triggers: add them again.
CREATE TRIGGER `live_timeline_notes_ai` AFTER INSERT ON `timeline_notes` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `version_id`, `client_user_id`, `data`)
  VALUES ('note', CASE WHEN NEW.`by_staff` = 1 AND NEW.`internal` = 1 THEN 'staff' WHEN NEW.`by_staff` = 1 THEN 'item' ELSE 'owner' END,
    NEW.`media_id`, NEW.`version_id`, NEW.`client_user_id`, json_object('change', 'created', 'source', CASE WHEN NEW.`by_staff` = 1 THEN 'staff' ELSE 'client' END, 'id', NEW.`id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_timeline_notes_au` AFTER UPDATE ON `timeline_notes` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `version_id`, `client_user_id`, `data`)
  VALUES ('note', CASE WHEN NEW.`by_staff` = 1 AND NEW.`internal` = 1 AND OLD.`internal` = 1 THEN 'staff' WHEN NEW.`by_staff` = 1 THEN 'item' ELSE 'owner' END,
    NEW.`media_id`, NEW.`version_id`, NEW.`client_user_id`, json_object('change', 'changed', 'source', CASE WHEN NEW.`by_staff` = 1 THEN 'staff' ELSE 'client' END, 'id', NEW.`id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_timeline_notes_ad` AFTER DELETE ON `timeline_notes` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `version_id`, `client_user_id`, `data`)
  VALUES ('note', CASE WHEN OLD.`by_staff` = 1 AND OLD.`internal` = 1 THEN 'staff' WHEN OLD.`by_staff` = 1 THEN 'item' ELSE 'owner' END,
    OLD.`media_id`, OLD.`version_id`, OLD.`client_user_id`, json_object('change', 'deleted', 'source', CASE WHEN OLD.`by_staff` = 1 THEN 'staff' ELSE 'client' END, 'id', OLD.`id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_client_feedback_ai` AFTER INSERT ON `client_feedback` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `version_id`, `client_user_id`, `data`)
  VALUES ('feedback', 'owner', NEW.`media_id`, NEW.`version_id`, NEW.`client_user_id`, json_object('change', 'created', 'source', 'client', 'id', NEW.`id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_client_feedback_au` AFTER UPDATE ON `client_feedback` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `version_id`, `client_user_id`, `data`)
  VALUES ('feedback', 'owner', NEW.`media_id`, NEW.`version_id`, NEW.`client_user_id`, json_object('change', 'changed', 'source', 'client', 'id', NEW.`id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_client_feedback_ad` AFTER DELETE ON `client_feedback` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `version_id`, `client_user_id`, `data`)
  VALUES ('feedback', 'owner', OLD.`media_id`, OLD.`version_id`, OLD.`client_user_id`, json_object('change', 'deleted', 'source', 'client', 'id', OLD.`id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_share_comments_ai` AFTER INSERT ON `share_comments` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `version_id`, `link_id`, `data`)
  VALUES (CASE NEW.`kind` WHEN 'note' THEN 'note' ELSE 'feedback' END, 'owner', NEW.`media_id`, NEW.`version_id`, NEW.`link_id`, json_object('change', 'created', 'source', 'link', 'id', NEW.`id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_share_comments_au` AFTER UPDATE ON `share_comments` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `version_id`, `link_id`, `data`)
  VALUES (CASE NEW.`kind` WHEN 'note' THEN 'note' ELSE 'feedback' END, 'owner', NEW.`media_id`, NEW.`version_id`, NEW.`link_id`, json_object('change', 'changed', 'source', 'link', 'id', NEW.`id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_share_comments_ad` AFTER DELETE ON `share_comments` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `version_id`, `link_id`, `data`)
  VALUES (CASE OLD.`kind` WHEN 'note' THEN 'note' ELSE 'feedback' END, 'owner', OLD.`media_id`, OLD.`version_id`, OLD.`link_id`, json_object('change', 'deleted', 'source', 'link', 'id', OLD.`id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_media_replies_ai` AFTER INSERT ON `media_replies` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `version_id`, `client_user_id`, `link_id`, `data`)
  SELECT 'reply', CASE WHEN n.`by_staff` = 1 AND n.`internal` = 1 THEN 'staff' WHEN n.`by_staff` = 1 THEN 'item' ELSE 'owner' END,
    n.`media_id`, n.`version_id`, n.`client_user_id`, NULL, json_object('change', 'created', 'parent', 'note', 'parentId', n.`id`, 'id', NEW.`id`)
  FROM `timeline_notes` n WHERE n.`id` = NEW.`timeline_note_id`
  UNION ALL
  SELECT 'reply', 'owner', f.`media_id`, f.`version_id`, f.`client_user_id`, NULL, json_object('change', 'created', 'parent', 'feedback', 'parentId', f.`id`, 'id', NEW.`id`)
  FROM `client_feedback` f WHERE f.`id` = NEW.`feedback_id`
  UNION ALL
  SELECT 'reply', 'owner', c.`media_id`, c.`version_id`, NULL, c.`link_id`, json_object('change', 'created', 'parent', 'link', 'parentId', c.`id`, 'id', NEW.`id`)
  FROM `share_comments` c WHERE c.`id` = NEW.`share_comment_id`;
END;--> statement-breakpoint
CREATE TRIGGER `live_media_replies_ad` AFTER DELETE ON `media_replies` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `version_id`, `client_user_id`, `link_id`, `data`)
  SELECT 'reply', CASE WHEN n.`by_staff` = 1 AND n.`internal` = 1 THEN 'staff' WHEN n.`by_staff` = 1 THEN 'item' ELSE 'owner' END,
    n.`media_id`, n.`version_id`, n.`client_user_id`, NULL, json_object('change', 'deleted', 'parent', 'note', 'parentId', n.`id`, 'id', OLD.`id`)
  FROM `timeline_notes` n WHERE n.`id` = OLD.`timeline_note_id`
  UNION ALL
  SELECT 'reply', 'owner', f.`media_id`, f.`version_id`, f.`client_user_id`, NULL, json_object('change', 'deleted', 'parent', 'feedback', 'parentId', f.`id`, 'id', OLD.`id`)
  FROM `client_feedback` f WHERE f.`id` = OLD.`feedback_id`
  UNION ALL
  SELECT 'reply', 'owner', c.`media_id`, c.`version_id`, NULL, c.`link_id`, json_object('change', 'deleted', 'parent', 'link', 'parentId', c.`id`, 'id', OLD.`id`)
  FROM `share_comments` c WHERE c.`id` = OLD.`share_comment_id`;
END;--> statement-breakpoint
CREATE TRIGGER `live_media_versions_ai` AFTER INSERT ON `media_versions` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `version_id`, `data`)
  VALUES ('version', 'item', NEW.`media_id`, NEW.`id`, json_object('change', 'created', 'number', NEW.`number`));
END;--> statement-breakpoint
CREATE TRIGGER `live_media_versions_ad` AFTER DELETE ON `media_versions` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `version_id`, `data`)
  VALUES ('version', 'item', OLD.`media_id`, OLD.`id`, json_object('change', 'deleted', 'number', OLD.`number`));
END;--> statement-breakpoint
CREATE TRIGGER `live_media_versions_approval` AFTER UPDATE ON `media_versions`
WHEN OLD.`approval_status` IS NOT NEW.`approval_status` OR OLD.`approval_locked` IS NOT NEW.`approval_locked` OR OLD.`approval_at` IS NOT NEW.`approval_at` OR OLD.`approval_note` IS NOT NEW.`approval_note`
BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `version_id`, `data`)
  VALUES ('approval', 'item', NEW.`media_id`, NEW.`id`, json_object('status', NEW.`approval_status`, 'locked', NEW.`approval_locked` = 1));
END;--> statement-breakpoint
CREATE TRIGGER `live_media_versions_processing` AFTER UPDATE ON `media_versions`
WHEN OLD.`processing_status` IS NOT NEW.`processing_status` OR OLD.`processing_progress` IS NOT NEW.`processing_progress`
BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `version_id`, `data`)
  VALUES ('processing', 'item', NEW.`media_id`, NEW.`id`, json_object('status', NEW.`processing_status`, 'progress', NEW.`processing_progress`));
END;--> statement-breakpoint
CREATE TRIGGER `live_media_ai` AFTER INSERT ON `media` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `data`) VALUES ('media', 'staff', NEW.`id`, json_object('change', 'created'));
END;--> statement-breakpoint
CREATE TRIGGER `live_media_au` AFTER UPDATE ON `media`
WHEN OLD.`processing_progress` IS NEW.`processing_progress` OR OLD.`processing_status` IS NOT NEW.`processing_status`
BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `data`)
  VALUES (CASE WHEN OLD.`storage_key` IS NOT NEW.`storage_key` THEN 'version' ELSE 'media' END, 'item', NEW.`id`, json_object('change', 'changed'));
END;--> statement-breakpoint
CREATE TRIGGER `live_media_client` AFTER UPDATE OF `client_id` ON `media` WHEN OLD.`client_id` IS NOT NEW.`client_id` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `client_id`, `data`)
  SELECT 'assignment', 'client', NEW.`id`, c, json_object('change', CASE WHEN c IS NEW.`client_id` THEN 'assigned' ELSE 'removed' END)
  FROM (SELECT OLD.`client_id` AS c UNION ALL SELECT NEW.`client_id`) WHERE c IS NOT NULL;
END;--> statement-breakpoint
-- Before the row goes: its clients and links are still there to be told.
CREATE TRIGGER `live_media_bd` BEFORE DELETE ON `media` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `client_id`, `data`)
  SELECT 'assignment', 'client', OLD.`id`, c, json_object('change', 'removed')
  FROM (SELECT OLD.`client_id` AS c UNION SELECT `client_id` FROM `media_clients` WHERE `media_id` = OLD.`id`) WHERE c IS NOT NULL;
  INSERT INTO `live_events` (`topic`, `audience`, `link_id`, `media_id`, `data`)
  SELECT 'link', 'link', `link_id`, OLD.`id`, json_object('change', 'items') FROM `share_link_items` WHERE `media_id` = OLD.`id`;
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `data`) VALUES ('media', 'staff', OLD.`id`, json_object('change', 'deleted'));
END;--> statement-breakpoint
CREATE TRIGGER `live_media_clients_ai` AFTER INSERT ON `media_clients` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `client_id`, `data`) VALUES ('assignment', 'client', NEW.`media_id`, NEW.`client_id`, json_object('change', 'assigned'));
END;--> statement-breakpoint
CREATE TRIGGER `live_media_clients_ad` AFTER DELETE ON `media_clients` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `client_id`, `data`) VALUES ('assignment', 'client', OLD.`media_id`, OLD.`client_id`, json_object('change', 'removed'));
END;--> statement-breakpoint
CREATE TRIGGER `live_share_links_ai` AFTER INSERT ON `share_links` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `link_id`, `data`) VALUES ('link', 'link', NEW.`id`, json_object('change', 'created'));
END;--> statement-breakpoint
CREATE TRIGGER `live_share_links_au` AFTER UPDATE ON `share_links` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `link_id`, `data`) VALUES ('link', 'link', NEW.`id`, json_object('change', 'changed'));
END;--> statement-breakpoint
CREATE TRIGGER `live_share_link_items_ai` AFTER INSERT ON `share_link_items` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `link_id`, `media_id`, `data`) VALUES ('link', 'link', NEW.`link_id`, NEW.`media_id`, json_object('change', 'items'));
END;--> statement-breakpoint
CREATE TRIGGER `live_share_link_items_ad` AFTER DELETE ON `share_link_items` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `link_id`, `media_id`, `data`) VALUES ('link', 'link', OLD.`link_id`, OLD.`media_id`, json_object('change', 'items'));
END;--> statement-breakpoint
CREATE TRIGGER `live_share_access_log_ai` AFTER INSERT ON `share_access_log` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `permission`, `link_id`, `media_id`, `data`)
  VALUES ('link-activity', 'staff', 'share:media', NEW.`link_id`, NEW.`media_id`, json_object('action', NEW.`action`));
END;--> statement-breakpoint
CREATE TRIGGER `live_jobs_watermark_done` AFTER UPDATE OF `status` ON `jobs`
WHEN NEW.`kind` = 'watermark' AND OLD.`status` IS NOT NEW.`status` AND NEW.`status` IN ('done', 'failed')
BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `version_id`, `data`)
  VALUES ('preview', 'item', NEW.`media_id`, NEW.`version_id`, json_object('status', NEW.`status`));
END;--> statement-breakpoint
CREATE TRIGGER `live_notification_events_ai` AFTER INSERT ON `notification_events` WHEN NEW.`audience` = 'staff' BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `media_id`, `data`) VALUES ('bell', 'staff', NEW.`media_id`, json_object('id', NEW.`id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_users_seen` AFTER UPDATE OF `bell_seen_id` ON `users` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('sys-bell-seen', 'system', json_object('userId', NEW.`id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_staff_sessions_ad` AFTER DELETE ON `staff_sessions` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('sys-session', 'system', json_object('kind', 'staff', 'id', OLD.`id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_client_sessions_ad` AFTER DELETE ON `client_sessions` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('sys-session', 'system', json_object('kind', 'client', 'id', OLD.`id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_share_visits_ad` AFTER DELETE ON `share_visits` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `link_id`, `data`) VALUES ('sys-visit', 'system', OLD.`link_id`, json_object('id', OLD.`id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_user_roles_ai` AFTER INSERT ON `user_roles` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('sys-access', 'system', json_object('userId', NEW.`user_id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_user_roles_ad` AFTER DELETE ON `user_roles` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('sys-access', 'system', json_object('userId', OLD.`user_id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_role_permissions_ai` AFTER INSERT ON `role_permissions` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('sys-access', 'system', json_object('roleId', NEW.`role_id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_role_permissions_ad` AFTER DELETE ON `role_permissions` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('sys-access', 'system', json_object('roleId', OLD.`role_id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_users_active` AFTER UPDATE OF `is_active` ON `users` WHEN OLD.`is_active` IS NOT NEW.`is_active` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('sys-access', 'system', json_object('userId', NEW.`id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_client_users_active` AFTER UPDATE OF `is_active` ON `client_users` WHEN OLD.`is_active` IS NOT NEW.`is_active` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('sys-client', 'system', json_object('clientUserId', NEW.`id`));
END;--> statement-breakpoint
CREATE TRIGGER `live_clients_active` AFTER UPDATE OF `is_active` ON `clients` WHEN OLD.`is_active` IS NOT NEW.`is_active` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `client_id`, `data`) VALUES ('sys-client', 'system', NEW.`id`, json_object('clientId', NEW.`id`));
END;
