-- The digest of each stored game (services/replays/digest.h, docs/RESULTS.md), kept
-- beside it so that Replays.ConfirmGame is one key lookup instead of reading the game
-- back, codes included, and hashing it on every rating (docs/PERFORMANCE.md, "Results
-- by RPC"). StoreGame writes it in the game's own transaction, from the values it
-- stores. Games stored before this column keep NULL: their digest is computed from the
-- tables the first time it is asked for and written in then (digest_store.h). No
-- backfill here: the canonical encoding is defined once, in C++, and a second one in
-- SQL could drift from it; and hashing every stored game's codes would make this
-- migration as long as the table is large.
ALTER TABLE games ADD COLUMN digest TEXT CHECK (digest ~ '^[0-9a-f]{64}$');
