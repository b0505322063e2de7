-- Tournaments for bot competitions (docs/TOURNAMENTS.md). The schedule lives here,
-- so a tournament survives any restart: the matchmaker that leads scheduling reads
-- what is pending and playing, and goes on.
CREATE TABLE tournaments (
  id            TEXT PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{1,40}$'),
  title         TEXT NOT NULL DEFAULT '',
  format        TEXT NOT NULL CHECK (format IN ('round-robin', 'swiss', 'duplicate')),
  ruleset       TEXT NOT NULL,
  options       TEXT NOT NULL DEFAULT '',
  seats         SMALLINT NOT NULL CHECK (seats IN (3, 4)),
  rounds        INTEGER NOT NULL CHECK (rounds >= 1),
  seed          BIGINT NOT NULL,
  max_games_per_entrant INTEGER NOT NULL CHECK (max_games_per_entrant >= 1),
  decision_ms   INTEGER NOT NULL,
  time_bank_ms  INTEGER NOT NULL,
  state         TEXT NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'finished', 'cancelled')),
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  finished_at   TIMESTAMPTZ
);

CREATE TABLE tournament_entrants (
  tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
  entrant       SMALLINT NOT NULL CHECK (entrant >= 0),   -- index into the entrant list
  identity_id   BIGINT NOT NULL REFERENCES identities (id),
  PRIMARY KEY (tournament_id, entrant),
  UNIQUE (tournament_id, identity_id)
);

-- One row per game of the schedule. state: pending (waiting for its entrants),
-- starting (a game id chosen, being created on a host), playing, finished.
-- A game lost with its host goes back to pending and gets a new game id
-- (attempts counts them); only the game named here counts.
CREATE TABLE tournament_games (
  tournament_id TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
  number        INTEGER NOT NULL CHECK (number >= 0),
  round         INTEGER NOT NULL CHECK (round >= 0),
  set_no        INTEGER NOT NULL DEFAULT -1,   -- duplicate: rotations of one board and dice
  rotation      SMALLINT NOT NULL DEFAULT 0,
  entrants      SMALLINT[] NOT NULL,          -- entrant indices by seat
  chance_seed   BIGINT NOT NULL,
  board_seed    BIGINT NOT NULL,
  state         TEXT NOT NULL DEFAULT 'pending'
                CHECK (state IN ('pending', 'starting', 'playing', 'finished')),
  game_id       TEXT UNIQUE,
  host          TEXT,
  attempts      INTEGER NOT NULL DEFAULT 0,
  state_since   TIMESTAMPTZ NOT NULL DEFAULT now(),
  places        SMALLINT[],                   -- by seat, 1-based, when finished
  PRIMARY KEY (tournament_id, number)
);
CREATE INDEX tournament_games_open ON tournament_games (tournament_id, state) WHERE state <> 'finished';
CREATE INDEX tournament_games_sets ON tournament_games (tournament_id, set_no) WHERE set_no >= 0;
