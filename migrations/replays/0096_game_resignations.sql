-- A game a seat resigned (END_REASON_RESIGNED, GameResult.resigned_seat): the
-- game ended there, and the seat, also marked forfeited in game_seats, ranks
-- last. NULL for every other game. Part of the game's digest when set; games
-- stored before have no resignation, and their digests do not change.
ALTER TABLE games ADD COLUMN resigned_seat SMALLINT CHECK (resigned_seat >= 0);
