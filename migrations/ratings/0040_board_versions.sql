-- A version per leaderboard (ladder and season), bumped in the transaction of every
-- write that changes the board (project issue #14, "leaderboard versions"). Redis
-- keeps the version its copy of the board reflects, written in the same script as
-- the board; a read compares the two and rebuilds the copy on any difference: Redis
-- behind (a write it lost) or ahead (PostgreSQL restored from a backup).
CREATE TABLE board_versions (
  ladder_id TEXT NOT NULL,
  season INTEGER NOT NULL,
  version BIGINT NOT NULL,
  PRIMARY KEY (ladder_id, season)
);

-- The boards rated so far start at version 1: whatever Redis holds of them carries
-- no version yet, so their first read rebuilds them.
INSERT INTO board_versions (ladder_id, season, version)
SELECT DISTINCT ladder_id, season, 1 FROM ratings;
