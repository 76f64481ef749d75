-- The audit chain's head moves in the same statement as the row that extends it (issue 56's
-- write budget: one round trip per row on sqld, not three). Only a row right after the head
-- moves it: a row put back in the middle or at the head (a repair, a test) leaves the head alone.
CREATE TRIGGER `audit_log_moves_head` AFTER INSERT ON `audit_log` BEGIN
  UPDATE `audit_state` SET `head_id` = NEW.`id`, `head_hash` = NEW.`hash`, `head_at` = NEW.`at`
    WHERE `id` = 1 AND `head_id` = NEW.`id` - 1;
END;
