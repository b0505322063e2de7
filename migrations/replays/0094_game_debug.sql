-- The debug channel (proto/metropolis/v1/replays.proto, SeatDebug): what a bot
-- said about its decisions, with its think times, one row per seat that has any.
-- Kept apart from the game's own tables so that it stays out of the game's
-- digest and out of every read but GetDebug, which shows a seat's row only to
-- the bot's author. `debug` is the serialised SeatDebug (identity unset), at
-- most 64 KiB of notes and evaluations plus a few bytes per step; written once,
-- in the transaction that stores the game.
CREATE TABLE game_debug (
  game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  seat    SMALLINT NOT NULL CHECK (seat >= 0),
  debug   BYTEA NOT NULL,
  PRIMARY KEY (game_id, seat)
);
