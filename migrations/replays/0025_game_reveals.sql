-- What the replays service may show of tournaments' games (docs/TOURNAMENTS.md,
-- "Duplicate sets stay hidden"). A stored game with a tournament is hidden unless
-- a row here reveals it: its tournament's row with game_id '' (every game of the
-- tournament), or its own row under its own tournament. The tournaments service
-- writes these rows through Replays.RevealGames; the replays service reads no
-- tournaments table any more. Rows are only added, never removed: a reveal is
-- not taken back. A game id may be revealed before its game is stored.
CREATE TABLE game_reveals (
  tournament_id TEXT NOT NULL CHECK (tournament_id <> ''),
  game_id       TEXT NOT NULL DEFAULT '',   -- '' = the whole tournament
  revealed_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (tournament_id, game_id)
);
