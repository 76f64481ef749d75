-- Bump library_state.version on every write that changes GET /api/media's answer.
INSERT OR IGNORE INTO `library_state` (`id`, `version`) VALUES (1, 1);
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `media_ai_library_version` AFTER INSERT ON `media` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `media_au_library_version` AFTER UPDATE ON `media` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `media_ad_library_version` AFTER DELETE ON `media` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `media_clients_ai_library_version` AFTER INSERT ON `media_clients` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `media_clients_au_library_version` AFTER UPDATE ON `media_clients` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `media_clients_ad_library_version` AFTER DELETE ON `media_clients` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `client_feedback_ai_library_version` AFTER INSERT ON `client_feedback` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `client_feedback_au_library_version` AFTER UPDATE ON `client_feedback` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `client_feedback_ad_library_version` AFTER DELETE ON `client_feedback` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `timeline_notes_ai_library_version` AFTER INSERT ON `timeline_notes` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `timeline_notes_au_library_version` AFTER UPDATE ON `timeline_notes` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `timeline_notes_ad_library_version` AFTER DELETE ON `timeline_notes` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `clients_ai_library_version` AFTER INSERT ON `clients` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `clients_au_library_version` AFTER UPDATE ON `clients` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `clients_ad_library_version` AFTER DELETE ON `clients` BEGIN UPDATE `library_state` SET `version` = `version` + 1 WHERE `id` = 1; END;
