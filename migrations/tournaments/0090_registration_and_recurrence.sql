-- Tournaments people can enter (docs/TOURNAMENTS.md, "Registration and recurring
-- tournaments"). A tournament with a start in the future is 'registering': it
-- takes entrants until starts_at, and the scheduler makes its schedule from
-- them then (or cancels it, saying why in `reason`). A recurring one names its
-- series (the first occurrence's id) and opens its next occurrence as it starts.
-- Existing tournaments started when they were created.
ALTER TABLE tournaments ADD COLUMN starts_at TIMESTAMPTZ;
UPDATE tournaments SET starts_at = created_at;
ALTER TABLE tournaments ALTER COLUMN starts_at SET NOT NULL;
ALTER TABLE tournaments ALTER COLUMN starts_at SET DEFAULT now();
ALTER TABLE tournaments ADD COLUMN max_entrants INTEGER NOT NULL DEFAULT 0 CHECK (max_entrants >= 0);
ALTER TABLE tournaments ADD COLUMN repeat_every_ms BIGINT NOT NULL DEFAULT 0 CHECK (repeat_every_ms >= 0);
ALTER TABLE tournaments ADD COLUMN series TEXT NOT NULL DEFAULT '';
ALTER TABLE tournaments ADD COLUMN occurrence INTEGER NOT NULL DEFAULT 1 CHECK (occurrence >= 1);
ALTER TABLE tournaments ADD COLUMN reason TEXT NOT NULL DEFAULT '';
ALTER TABLE tournaments DROP CONSTRAINT tournaments_state_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_state_check
  CHECK (state IN ('registering', 'running', 'finished', 'cancelled'));
-- The scheduler's question at every pass: which registrations have closed.
CREATE INDEX tournaments_registering ON tournaments (starts_at) WHERE state = 'registering';
-- When an entrant entered: registration keeps the order of entry (the entrant
-- numbers are renumbered when one leaves, so that they stay 0..n-1).
ALTER TABLE tournament_entrants ADD COLUMN entered_at TIMESTAMPTZ NOT NULL DEFAULT now();
