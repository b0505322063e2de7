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

-- The games the worker looked at and left without analysis: 'no_person' (nobody at
-- the table is a person: the game waits for someone to ask) or 'dropped' (its line
-- was full). A starting worker does not queue them again, and a read says they are
-- not analysed rather than queued; asking for one analyses it all the same.
CREATE TABLE game_analysis_skips (
  game_id    TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
  reason     TEXT NOT NULL CHECK (reason IN ('no_person', 'dropped')),
  skipped_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
