-- Stopping early (docs/TOURNAMENTS.md, "Stopping early"): a tournament that asks
-- for it stops once the sequential test has decided every pair of entrants; the
-- games of the schedule not yet begun (whole duplicate sets) become 'void'.
ALTER TABLE tournaments ADD COLUMN sequential_stop BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE tournament_games DROP CONSTRAINT tournament_games_state_check;
ALTER TABLE tournament_games ADD CONSTRAINT tournament_games_state_check
  CHECK (state IN ('pending', 'starting', 'playing', 'finished', 'void'));
