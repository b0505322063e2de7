-- Completed games and their replays. A game is stored once (its id is the key); the
-- replay keeps the engine's rules version and the stable action codes, which stay
-- readable when a later version orders legal actions differently, and beside them the
-- compact form (each action as its index in the ordered legal list, entropy-coded).
CREATE TABLE games (
  id              TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
  ladder_id       TEXT,                    -- a ladder's id, or a label for unregistered play
  season          INTEGER,
  tournament_id   TEXT,
  rules_version   INTEGER NOT NULL,
  config          BYTEA NOT NULL,          -- metropolis.v1.GameConfig, complete
  chance_seed     BIGINT NOT NULL DEFAULT 0,
  num_seats       SMALLINT NOT NULL CHECK (num_seats IN (3, 4)),
  reason          SMALLINT NOT NULL,       -- metropolis.v1.EndReason
  winner          SMALLINT,                -- NULL without a winner
  vp              SMALLINT[] NOT NULL,
  actions         INTEGER NOT NULL CHECK (actions >= 0),
  created_at      TIMESTAMPTZ NOT NULL,
  finished_at     TIMESTAMPTZ NOT NULL,
  finished_unix_ms BIGINT NOT NULL,        -- the same instant, exact: the key of keyset paging
  stored_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX games_by_time ON games (finished_unix_ms DESC, id DESC);
CREATE INDEX games_by_ladder ON games (ladder_id, season, finished_unix_ms DESC, id DESC);
CREATE INDEX games_by_tournament ON games (tournament_id, finished_unix_ms DESC, id DESC)
  WHERE tournament_id IS NOT NULL;

CREATE TABLE game_seats (
  game_id      TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  seat         SMALLINT NOT NULL CHECK (seat BETWEEN 0 AND 3),
  identity_id  BIGINT REFERENCES identities (id),  -- NULL for a built-in bot
  name         TEXT NOT NULL,
  fallback_decisions INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_seats_by_identity ON game_seats (identity_id, game_id) WHERE identity_id IS NOT NULL;

CREATE TABLE replays (
  game_id        TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
  rules_version  INTEGER NOT NULL,
  codes          BYTEA NOT NULL,             -- the stable 64-bit codes, big-endian, 8 bytes each
  compact        BYTEA,                      -- the compressed form, when it could be built
  compact_format SMALLINT
);
