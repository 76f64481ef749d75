ALTER TABLE `media` ADD `gallery_id` integer;--> statement-breakpoint
-- Issue 53: one list of project stages. The detail's Edit tab offered "Final" beside the
-- dialogs' "Completed"; the list keeps Completed.
UPDATE `media` SET `project_stage` = 'completed' WHERE `project_stage` = 'final';
--> statement-breakpoint
-- Stills uploaded into a gallery before this release were not marked. One is recognised as the
-- upload tray left it: an image with no tags, stage, notes or client, on no page, link or
-- setting, that joined its first gallery within a minute of being made.
UPDATE `media` SET `gallery_id` = (SELECT gi.`gallery_id` FROM `gallery_images` gi WHERE gi.`media_id` = `media`.`id` ORDER BY gi.`id` LIMIT 1)
WHERE `type` = 'image' AND `client_id` IS NULL AND `is_featured` = 0 AND `show_in_portfolio` = 0
  AND `tags` = '[]' AND `project_stage` IS NULL AND coalesce(`notes`, '') = ''
  AND (SELECT gi.`created_at` - `media`.`created_at` FROM `gallery_images` gi WHERE gi.`media_id` = `media`.`id` ORDER BY gi.`id` LIMIT 1) BETWEEN 0 AND 60000
  AND NOT EXISTS (SELECT 1 FROM `media_clients` mc WHERE mc.`media_id` = `media`.`id`)
  AND NOT EXISTS (SELECT 1 FROM `share_link_items` sli WHERE sli.`media_id` = `media`.`id`)
  AND NOT EXISTS (SELECT 1 FROM `website_settings` w WHERE `media`.`id` IN (w.`background_image_id`, w.`background_video_id`))
  AND NOT EXISTS (SELECT 1 FROM `branding_settings` b WHERE `media`.`id` IN (b.`logo_light_image_id`, b.`logo_dark_image_id`, b.`favicon_image_id`, b.`open_graph_image_id`))
  AND NOT EXISTS (SELECT 1 FROM `seo_settings` s WHERE `media`.`id` IN (s.`open_graph_image_id`, s.`twitter_image_id`));
