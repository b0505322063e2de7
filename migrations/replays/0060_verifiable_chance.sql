-- Chance version 2 (docs/CHANCE.md): a game's secret 32-byte seed, revealed with
-- the stored game, and the commitment to it the game announced at its start.
-- Both NULL for the games stored before (and for version 1 games, whose known
-- 64-bit seed stays in chance_seed): they replay as they always did.
ALTER TABLE games
  ADD COLUMN verifiable_seed BYTEA CHECK (octet_length(verifiable_seed) = 32),
  ADD COLUMN chance_commitment BYTEA CHECK (octet_length(chance_commitment) = 32),
  ADD CONSTRAINT games_verifiable_chance_whole CHECK ((verifiable_seed IS NULL) = (chance_commitment IS NULL));
