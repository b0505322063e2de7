-- Ladders and their seasons. A ladder is a configuration: ruleset and rules options,
-- seats, deadlines, rating parameters, placement games and bot fill-in.
CREATE TABLE ladders (
  id               TEXT PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9_-]{0,63}$'),
  title            TEXT NOT NULL DEFAULT '',
  ruleset          TEXT NOT NULL DEFAULT 'cities_and_knights' CHECK (ruleset IN ('cities_and_knights', 'base')),
  options          TEXT NOT NULL DEFAULT '',  -- the engine's "name=value ..." text
  seats            SMALLINT NOT NULL DEFAULT 4 CHECK (seats IN (3, 4)),
  allow_three_after_ms INTEGER,              -- NULL: tables of 4 only
  bot_fill_after_ms    INTEGER,              -- NULL: never fill seats with built-in bots
  decision_ms      INTEGER NOT NULL DEFAULT 10000 CHECK (decision_ms > 0),
  time_bank_ms     INTEGER NOT NULL DEFAULT 60000 CHECK (time_bank_ms >= 0),
  -- Weng-Lin Plackett-Luce parameters (docs/RATINGS.md).
  mu               DOUBLE PRECISION NOT NULL DEFAULT 25,
  sigma            DOUBLE PRECISION NOT NULL DEFAULT 8.333333333333334,
  beta             DOUBLE PRECISION NOT NULL DEFAULT 4.166666666666667,
  kappa            DOUBLE PRECISION NOT NULL DEFAULT 0.0001,
  tau              DOUBLE PRECISION NOT NULL DEFAULT 0.08333333333333333,
  placement_games  INTEGER NOT NULL DEFAULT 10 CHECK (placement_games >= 0),
  created_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE seasons (
  ladder_id   TEXT NOT NULL REFERENCES ladders (id),
  season      INTEGER NOT NULL CHECK (season >= 1),
  starts_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
  ends_at     TIMESTAMPTZ,
  PRIMARY KEY (ladder_id, season),
  CHECK (ends_at IS NULL OR ends_at > starts_at)
);
