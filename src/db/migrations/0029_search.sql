CREATE TABLE `search_docs` (
	`id` integer PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`media_id` integer NOT NULL,
	`version_id` integer,
	`track_id` integer,
	`note_id` integer,
	`at_ms` integer NOT NULL,
	`text` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `search_docs_track_idx` ON `search_docs` (`track_id`);--> statement-breakpoint
CREATE INDEX `search_docs_note_idx` ON `search_docs` (`note_id`);--> statement-breakpoint
CREATE INDEX `search_docs_media_idx` ON `search_docs` (`media_id`);--> statement-breakpoint
CREATE VIRTUAL TABLE `search_fts` USING fts5(`text`, content = 'search_docs', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2');--> statement-breakpoint
CREATE TRIGGER `search_docs_ai` AFTER INSERT ON `search_docs` BEGIN
  INSERT INTO `search_fts` (rowid, `text`) VALUES (NEW.`id`, NEW.`text`);
END;--> statement-breakpoint
CREATE TRIGGER `search_docs_ad` AFTER DELETE ON `search_docs` BEGIN
  INSERT INTO `search_fts` (`search_fts`, rowid, `text`) VALUES ('delete', OLD.`id`, OLD.`text`);
END;--> statement-breakpoint
CREATE TRIGGER `search_docs_au` AFTER UPDATE OF `text` ON `search_docs` BEGIN
  INSERT INTO `search_fts` (`search_fts`, rowid, `text`) VALUES ('delete', OLD.`id`, OLD.`text`);
  INSERT INTO `search_fts` (rowid, `text`) VALUES (NEW.`id`, NEW.`text`);
END;--> statement-breakpoint
CREATE TRIGGER `search_tracks_ai` AFTER INSERT ON `caption_tracks` WHEN NEW.`current_revision_id` IS NOT NULL BEGIN
  INSERT INTO `search_docs` (`kind`, `media_id`, `version_id`, `track_id`, `at_ms`, `text`)
    SELECT 'cue', NEW.`media_id`, NEW.`version_id`, NEW.`id`, c.`start_ms`,
      replace(replace(replace(replace(replace(replace(c.`text`, '<i>', ''), '</i>', ''), '<b>', ''), '</b>', ''), '<u>', ''), '</u>', '')
    FROM `caption_cues` c WHERE c.`revision_id` = NEW.`current_revision_id`;
END;--> statement-breakpoint
CREATE TRIGGER `search_tracks_au` AFTER UPDATE OF `current_revision_id` ON `caption_tracks` WHEN NEW.`current_revision_id` IS NOT OLD.`current_revision_id` BEGIN
  DELETE FROM `search_docs` WHERE `track_id` = NEW.`id`;
  INSERT INTO `search_docs` (`kind`, `media_id`, `version_id`, `track_id`, `at_ms`, `text`)
    SELECT 'cue', NEW.`media_id`, NEW.`version_id`, NEW.`id`, c.`start_ms`,
      replace(replace(replace(replace(replace(replace(c.`text`, '<i>', ''), '</i>', ''), '<b>', ''), '</b>', ''), '<u>', ''), '</u>', '')
    FROM `caption_cues` c WHERE c.`revision_id` = NEW.`current_revision_id`;
END;--> statement-breakpoint
CREATE TRIGGER `search_tracks_ad` AFTER DELETE ON `caption_tracks` BEGIN
  DELETE FROM `search_docs` WHERE `track_id` = OLD.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `search_notes_ai` AFTER INSERT ON `timeline_notes` BEGIN
  INSERT INTO `search_docs` (`kind`, `media_id`, `version_id`, `note_id`, `at_ms`, `text`)
    VALUES ('note', NEW.`media_id`, NEW.`version_id`, NEW.`id`, coalesce(NEW.`timestamp_ms`, NEW.`timestamp_seconds` * 1000), NEW.`note_text`);
END;--> statement-breakpoint
CREATE TRIGGER `search_notes_au` AFTER UPDATE OF `note_text`, `timestamp_ms`, `timestamp_seconds`, `version_id`, `media_id` ON `timeline_notes` BEGIN
  UPDATE `search_docs` SET `text` = NEW.`note_text`, `at_ms` = coalesce(NEW.`timestamp_ms`, NEW.`timestamp_seconds` * 1000), `version_id` = NEW.`version_id`, `media_id` = NEW.`media_id`
    WHERE `note_id` = NEW.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `search_notes_ad` AFTER DELETE ON `timeline_notes` BEGIN
  DELETE FROM `search_docs` WHERE `note_id` = OLD.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `search_media_ad` AFTER DELETE ON `media` BEGIN
  DELETE FROM `search_docs` WHERE `media_id` = OLD.`id`;
END;--> statement-breakpoint
INSERT INTO `search_docs` (`kind`, `media_id`, `version_id`, `track_id`, `at_ms`, `text`)
  SELECT 'cue', t.`media_id`, t.`version_id`, t.`id`, c.`start_ms`,
    replace(replace(replace(replace(replace(replace(c.`text`, '<i>', ''), '</i>', ''), '<b>', ''), '</b>', ''), '<u>', ''), '</u>', '')
  FROM `caption_tracks` t JOIN `caption_cues` c ON c.`revision_id` = t.`current_revision_id`;--> statement-breakpoint
INSERT INTO `search_docs` (`kind`, `media_id`, `version_id`, `note_id`, `at_ms`, `text`)
  SELECT 'note', n.`media_id`, n.`version_id`, n.`id`, coalesce(n.`timestamp_ms`, n.`timestamp_seconds` * 1000), n.`note_text` FROM `timeline_notes` n;
