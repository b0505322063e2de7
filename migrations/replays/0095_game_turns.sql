-- The turns a stored game took (GameResult.turns), which game listings show.
-- Replays computes it by replaying the game when it stores it; it is derived
-- from the actions, so it stays out of the game's digest. Games stored before
-- this migration have NULL, read as 0 ("not known"): the listings then show
-- only the game's steps.
ALTER TABLE games ADD COLUMN turns INTEGER CHECK (turns >= 0);
