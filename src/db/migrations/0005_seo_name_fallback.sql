-- Issue 19 #12: the seeded SEO business name and meta title carried the default company name
-- ('Studio'), which hid a renamed company from page titles, og:site_name and JSON-LD. Blank
-- them where they still hold the seeded text, so the pages fall back to the branding name.
UPDATE `seo_settings` SET `business_name` = '' WHERE `business_name` = 'Studio';--> statement-breakpoint
UPDATE `seo_settings` SET `meta_title` = '' WHERE `meta_title` = 'Studio | Cinematic Video Production in Leicestershire';
