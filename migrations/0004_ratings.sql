-- Ratings per ladder and season, their history, and the games already rated: a game
-- is rated exactly once because its id is recorded in rated_games in the same
-- transaction as the rating changes and their history rows.
CREATE TABLE ratings (
  ladder_id    TEXT NOT NULL,
  season       INTEGER NOT NULL,
  identity_id  BIGINT NOT NULL REFERENCES identities (id),
  mu           DOUBLE PRECISION NOT NULL,
  sigma        DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
  games        INTEGER NOT NULL DEFAULT 0,
  updated_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (ladder_id, season, identity_id),
  FOREIGN KEY (ladder_id, season) REFERENCES seasons (ladder_id, season)
);
-- Leaderboards order by the ordinal mu - 3 sigma.
CREATE INDEX ratings_leaderboard ON ratings (ladder_id, season, (mu - 3 * sigma) DESC, identity_id);

CREATE TABLE rated_games (
  game_id    TEXT PRIMARY KEY REFERENCES games (id),
  ladder_id  TEXT NOT NULL,
  season     INTEGER NOT NULL,
  rated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE rating_history (
  id            BIGSERIAL PRIMARY KEY,
  game_id       TEXT NOT NULL REFERENCES rated_games (game_id),
  ladder_id     TEXT NOT NULL,
  season        INTEGER NOT NULL,
  identity_id   BIGINT NOT NULL REFERENCES identities (id),
  rank          SMALLINT NOT NULL,
  mu_before     DOUBLE PRECISION NOT NULL,
  sigma_before  DOUBLE PRECISION NOT NULL,
  mu_after      DOUBLE PRECISION NOT NULL,
  sigma_after   DOUBLE PRECISION NOT NULL,
  at            TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (game_id, identity_id)
);
CREATE INDEX rating_history_by_player ON rating_history (identity_id, ladder_id, season, id);
