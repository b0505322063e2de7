-- A finished game's analysis (docs/ANALYSIS.md): its luck account, every seat's
-- chance of winning over the game and the search bot's marks, as the JSON object
-- `metropolis-engine analyse --json` prints, kept byte for byte as computed.
-- Derived from the stored game: the replays service's worker writes it once
-- (a second write of the same game keeps the first), and a lost one is computed
-- again. method_version names the method that made it, so that a later method
-- can tell its own rows from older ones.
CREATE TABLE game_analyses (
  game_id        TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
  method_version INTEGER NOT NULL CHECK (method_version >= 1),
  analysis       TEXT NOT NULL,
  cpu_seconds    DOUBLE PRECISION NOT NULL CHECK (cpu_seconds >= 0),
  analysed_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
