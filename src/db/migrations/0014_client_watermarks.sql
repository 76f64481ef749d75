-- A client can be set to see only watermarked previews (issue 17): a share_links row with the
-- client's id names its preview files. drizzle-kit writes added references without ON DELETE.
ALTER TABLE `share_links` ADD `client_id` integer REFERENCES clients(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `share_links_client_idx` ON `share_links` (`client_id`);
