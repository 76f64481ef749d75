-- Version stacks (issue 16), hand-written: every existing item becomes v1 with the same files,
-- and its feedback, timeline notes and jobs belong to that v1.
INSERT INTO `media_versions` (`media_id`, `number`, `storage_key`, `url`, `poster_url`, `thumbnail_url`, `thumbnail_webp_url`, `webp_url`, `filename`, `file_size`, `mime_type`, `width`, `height`, `duration_seconds`, `processing_status`, `processing_progress`, `processing_error`, `renditions`, `sprite_url`, `original_playable`, `probe`, `uploaded_by`, `created_at`)
SELECT m.`id`, 1, m.`storage_key`, m.`url`, m.`poster_url`, m.`thumbnail_url`, m.`thumbnail_webp_url`, m.`webp_url`, m.`filename`, m.`file_size`, m.`mime_type`, m.`width`, m.`height`, m.`duration_seconds`, m.`processing_status`, m.`processing_progress`, m.`processing_error`, m.`renditions`, m.`sprite_url`, m.`original_playable`, m.`probe`, m.`uploaded_by`, m.`uploaded_at` FROM `media` m;
--> statement-breakpoint
UPDATE `client_feedback` SET `version_id` = (SELECT v.`id` FROM `media_versions` v WHERE v.`media_id` = `client_feedback`.`media_id` AND v.`number` = 1);
--> statement-breakpoint
UPDATE `timeline_notes` SET `version_id` = (SELECT v.`id` FROM `media_versions` v WHERE v.`media_id` = `timeline_notes`.`media_id` AND v.`number` = 1);
--> statement-breakpoint
UPDATE `jobs` SET `version_id` = (SELECT v.`id` FROM `media_versions` v WHERE v.`media_id` = `jobs`.`media_id` AND v.`number` = 1);
--> statement-breakpoint
-- Any new media row (upload, demo content, a row written by hand) gets its v1.
CREATE TRIGGER IF NOT EXISTS `media_ai_version` AFTER INSERT ON `media` BEGIN
  INSERT INTO `media_versions` (`media_id`, `number`, `storage_key`, `url`, `poster_url`, `thumbnail_url`, `thumbnail_webp_url`, `webp_url`, `filename`, `file_size`, `mime_type`, `width`, `height`, `duration_seconds`, `processing_status`, `processing_progress`, `processing_error`, `renditions`, `sprite_url`, `original_playable`, `probe`, `uploaded_by`, `created_at`)
  VALUES (NEW.`id`, 1, NEW.`storage_key`, NEW.`url`, NEW.`poster_url`, NEW.`thumbnail_url`, NEW.`thumbnail_webp_url`, NEW.`webp_url`, NEW.`filename`, NEW.`file_size`, NEW.`mime_type`, NEW.`width`, NEW.`height`, NEW.`duration_seconds`, NEW.`processing_status`, NEW.`processing_progress`, NEW.`processing_error`, NEW.`renditions`, NEW.`sprite_url`, NEW.`original_playable`, NEW.`probe`, NEW.`uploaded_by`, NEW.`uploaded_at`);
END;
--> statement-breakpoint
-- The media row holds the current version's file columns; changes to them (worker progress and
-- results, a new poster, switching the current version) are copied into that version.
CREATE TRIGGER IF NOT EXISTS `media_au_version` AFTER UPDATE OF `storage_key`, `url`, `poster_url`, `thumbnail_url`, `thumbnail_webp_url`, `webp_url`, `filename`, `file_size`, `mime_type`, `width`, `height`, `duration_seconds`, `processing_status`, `processing_progress`, `processing_error`, `renditions`, `sprite_url`, `original_playable`, `probe` ON `media` BEGIN
  UPDATE `media_versions` SET `url` = NEW.`url`, `poster_url` = NEW.`poster_url`, `thumbnail_url` = NEW.`thumbnail_url`, `thumbnail_webp_url` = NEW.`thumbnail_webp_url`, `webp_url` = NEW.`webp_url`, `filename` = NEW.`filename`, `file_size` = NEW.`file_size`, `mime_type` = NEW.`mime_type`, `width` = NEW.`width`, `height` = NEW.`height`, `duration_seconds` = NEW.`duration_seconds`, `processing_status` = NEW.`processing_status`, `processing_progress` = NEW.`processing_progress`, `processing_error` = NEW.`processing_error`, `renditions` = NEW.`renditions`, `sprite_url` = NEW.`sprite_url`, `original_playable` = NEW.`original_playable`, `probe` = NEW.`probe` WHERE `storage_key` = NEW.`storage_key`;
END;
--> statement-breakpoint
-- Feedback, notes and jobs written without a version belong to the current one.
CREATE TRIGGER IF NOT EXISTS `client_feedback_ai_version` AFTER INSERT ON `client_feedback` WHEN NEW.`version_id` IS NULL BEGIN
  UPDATE `client_feedback` SET `version_id` = (SELECT v.`id` FROM `media_versions` v JOIN `media` m ON m.`storage_key` = v.`storage_key` WHERE m.`id` = NEW.`media_id`) WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `timeline_notes_ai_version` AFTER INSERT ON `timeline_notes` WHEN NEW.`version_id` IS NULL BEGIN
  UPDATE `timeline_notes` SET `version_id` = (SELECT v.`id` FROM `media_versions` v JOIN `media` m ON m.`storage_key` = v.`storage_key` WHERE m.`id` = NEW.`media_id`) WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `jobs_ai_version` AFTER INSERT ON `jobs` WHEN NEW.`version_id` IS NULL BEGIN
  UPDATE `jobs` SET `version_id` = (SELECT v.`id` FROM `media_versions` v JOIN `media` m ON m.`storage_key` = v.`storage_key` WHERE m.`id` = NEW.`media_id`) WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
-- The admin list shows version numbers and approval: bump library_state like the media triggers
-- (0002, 0007). Only the client's decision: the list shows nothing else of a version that the
-- media row does not carry (the current version's file and status changes bump through it).
CREATE TRIGGER IF NOT EXISTS `media_versions_ai_library_version` AFTER INSERT ON `media_versions` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `media_versions_au_library_version` AFTER UPDATE ON `media_versions`
WHEN OLD.`approval_status` IS NOT NEW.`approval_status` OR OLD.`approval_locked` IS NOT NEW.`approval_locked` OR OLD.`approval_note` IS NOT NEW.`approval_note`
BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `media_versions_ad_library_version` AFTER DELETE ON `media_versions` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
