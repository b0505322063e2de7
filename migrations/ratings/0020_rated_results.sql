-- Ratings rate the result the game host sends (Ratings.RateGame carries it with
-- the stored game's digest, which Replays confirms) and no longer read the
-- replays tables: rated_games keeps what a repeated or conflicting result is
-- compared with and what the rating history shows.
--   digest      the stored game's SHA-256 (Replays' StoreGameResponse.digest);
--               '' for games rated before this migration, which were read from
--               the stored game itself
--   identities  by seat, 0 for a seat without an identity
--   places      by seat, the ranks the game was rated with; NULL when not rated
--               (for games rated before, 0 for a seat without an identity,
--               whose rank was not kept)
--   num_seats   the game's seats
ALTER TABLE rated_games ADD COLUMN digest TEXT NOT NULL DEFAULT '';
ALTER TABLE rated_games ADD COLUMN identities BIGINT[] NOT NULL DEFAULT '{}';
ALTER TABLE rated_games ADD COLUMN places SMALLINT[];
ALTER TABLE rated_games ADD COLUMN num_seats SMALLINT NOT NULL DEFAULT 0;

-- The games rated so far, once, from the tables they were rated from.
UPDATE rated_games r SET
  num_seats = g.num_seats,
  identities = ARRAY(SELECT coalesce(s.identity_id, 0) FROM game_seats s WHERE s.game_id = g.id ORDER BY s.seat),
  places = CASE WHEN r.rated THEN ARRAY(
    SELECT coalesce((SELECT h.rank FROM rating_history h WHERE h.game_id = g.id AND h.identity_id = s.identity_id), 0)
    FROM game_seats s WHERE s.game_id = g.id ORDER BY s.seat) END
FROM games g WHERE g.id = r.game_id;

-- Replaces the foreign key rated_games -> games: a game is rated only after
-- Replays confirmed, over gRPC, that it is stored with the digest the result
-- carries (ConfirmGame); the digest is kept here, so a second, different result
-- for the game is refused.
ALTER TABLE rated_games DROP CONSTRAINT rated_games_game_id_fkey;
