-- Progress ticks of a running transcode must not invalidate the cached admin media list
-- (a rebuild per tick would cost ~0.5 s with 10,000 items): the media update trigger now
-- skips an update that changes processing_progress alone. A status change still bumps it.
DROP TRIGGER IF EXISTS `media_au_library_version`;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `media_au_library_version` AFTER UPDATE ON `media`
WHEN OLD.`processing_progress` IS NEW.`processing_progress` OR OLD.`processing_status` IS NOT NEW.`processing_status`
BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
