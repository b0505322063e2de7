-- The arena format (docs/TOURNAMENTS.md, "Arena"): entrants paired as they
-- become free for arena_ms from the start, each pairing a round of the schedule.
ALTER TABLE tournaments ADD COLUMN arena_ms BIGINT NOT NULL DEFAULT 0 CHECK (arena_ms >= 0);
ALTER TABLE tournaments DROP CONSTRAINT tournaments_format_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_format_check
  CHECK (format IN ('round-robin', 'swiss', 'duplicate', 'arena'));
