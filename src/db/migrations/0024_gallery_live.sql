-- Issue 53: proofing galleries update themselves. What a gallery's viewers see changing (images
-- added, removed, moved or given their sizes; the gallery's settings; its lists; a viewer's list
-- sent or reopened with a note; a high-res download counted against the gallery's cap) is published into live_events as topic 'gallery', audience
-- 'gallery': staff with view:media, the clients the gallery is shared with, and the visitors of
-- its links (src/server/live/audience.ts). The gallery's id is in the data; no media id, title
-- or note text is carried (the page reads its own API again).
CREATE TRIGGER `live_gallery_images_ai` AFTER INSERT ON `gallery_images` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('gallery', 'gallery', json_object('galleryId', NEW.`gallery_id`, 'change', 'images'));
END;--> statement-breakpoint
CREATE TRIGGER `live_gallery_images_au` AFTER UPDATE OF `set_id`, `position` ON `gallery_images` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('gallery', 'gallery', json_object('galleryId', NEW.`gallery_id`, 'change', 'images'));
END;--> statement-breakpoint
CREATE TRIGGER `live_gallery_images_ad` AFTER DELETE ON `gallery_images` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('gallery', 'gallery', json_object('galleryId', OLD.`gallery_id`, 'change', 'images'));
END;--> statement-breakpoint
CREATE TRIGGER `live_galleries_au` AFTER UPDATE ON `galleries` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('gallery', 'gallery', json_object('galleryId', NEW.`id`, 'change', 'settings'));
END;--> statement-breakpoint
CREATE TRIGGER `live_gallery_sets_ai` AFTER INSERT ON `gallery_sets` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('gallery', 'gallery', json_object('galleryId', NEW.`gallery_id`, 'change', 'sets'));
END;--> statement-breakpoint
CREATE TRIGGER `live_gallery_sets_au` AFTER UPDATE ON `gallery_sets` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('gallery', 'gallery', json_object('galleryId', NEW.`gallery_id`, 'change', 'sets'));
END;--> statement-breakpoint
CREATE TRIGGER `live_gallery_sets_ad` AFTER DELETE ON `gallery_sets` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('gallery', 'gallery', json_object('galleryId', OLD.`gallery_id`, 'change', 'sets'));
END;--> statement-breakpoint
CREATE TRIGGER `live_selection_lists_ai` AFTER INSERT ON `selection_lists` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('gallery', 'gallery', json_object('galleryId', NEW.`gallery_id`, 'change', 'lists'));
END;--> statement-breakpoint
CREATE TRIGGER `live_selection_lists_au` AFTER UPDATE ON `selection_lists` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('gallery', 'gallery', json_object('galleryId', NEW.`gallery_id`, 'change', 'lists'));
END;--> statement-breakpoint
CREATE TRIGGER `live_selection_lists_ad` AFTER DELETE ON `selection_lists` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('gallery', 'gallery', json_object('galleryId', OLD.`gallery_id`, 'change', 'lists'));
END;--> statement-breakpoint
CREATE TRIGGER `live_selections_au` AFTER UPDATE OF `submitted_at`, `reopened_at`, `reopen_note` ON `selections` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`)
  SELECT 'gallery', 'gallery', json_object('galleryId', `gallery_id`, 'change', 'selection') FROM `selection_lists` WHERE `id` = NEW.`list_id`;
END;--> statement-breakpoint
CREATE TRIGGER `live_stills_ai` AFTER INSERT ON `stills` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`)
  SELECT 'gallery', 'gallery', json_object('galleryId', gi.`gallery_id`, 'change', 'sizes')
  FROM `gallery_images` gi JOIN `media_versions` v ON v.`media_id` = gi.`media_id` WHERE v.`id` = NEW.`version_id`;
END;--> statement-breakpoint
CREATE TRIGGER `live_stills_au` AFTER UPDATE OF `status` ON `stills` WHEN OLD.`status` IS NOT NEW.`status` BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`)
  SELECT 'gallery', 'gallery', json_object('galleryId', gi.`gallery_id`, 'change', 'sizes')
  FROM `gallery_images` gi JOIN `media_versions` v ON v.`media_id` = gi.`media_id` WHERE v.`id` = NEW.`version_id`;
END;--> statement-breakpoint
CREATE TRIGGER `live_gallery_downloads_ai` AFTER INSERT ON `gallery_downloads`
WHEN NEW.`tier` IN ('highres', 'original') AND (SELECT `high_res_cap` FROM `galleries` WHERE `id` = NEW.`gallery_id`) IS NOT NULL
BEGIN
  INSERT INTO `live_events` (`topic`, `audience`, `data`) VALUES ('gallery', 'gallery', json_object('galleryId', NEW.`gallery_id`, 'change', 'downloads'));
END;
