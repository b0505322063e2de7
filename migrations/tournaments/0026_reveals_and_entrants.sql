-- What the tournaments service has told the replays service it may show
-- (Replays.RevealGames; docs/TOURNAMENTS.md). The runner sends what is due and
-- not yet acknowledged at every pass and marks it here once acknowledged, so a
-- lost call is sent again by whichever replica leads next. Existing rows start
-- unacknowledged: the first passes reveal what the replays service used to
-- show by reading these tables itself. Below: the entrants' foreign key to the
-- accounts' identities goes.
ALTER TABLE tournaments ADD COLUMN revealed BOOLEAN NOT NULL DEFAULT false;       -- whole tournament (not duplicate)
ALTER TABLE tournament_games ADD COLUMN revealed BOOLEAN NOT NULL DEFAULT false;  -- this game (duplicate sets)
CREATE INDEX tournament_games_unrevealed ON tournament_games (tournament_id)
  WHERE state = 'finished' AND NOT revealed AND set_no >= 0;

-- Entrants are the Accounts service's identities: the tournaments service checks
-- them there when a tournament is created (services/matchmaker/tournaments/
-- entrants.h), which replaces this foreign key across owners.
ALTER TABLE tournament_entrants DROP CONSTRAINT tournament_entrants_identity_id_fkey;
