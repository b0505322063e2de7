-- The tournament scheduler's fencing token. One matchmaker replica leads the
-- scheduling at a time (a lease in Redis), but a leader paused past its lease (a
-- stopped process, a long GC-like stall, a lost lease) wakes up still believing it
-- leads. Each replica that takes the lease takes the next fence here, in the same
-- database as the schedule, and every change the scheduler makes raises the fence
-- to its own in the same transaction, refusing when a newer leader's is higher: a
-- stale leader's writes change nothing.
CREATE TABLE tournament_leader (
  only_row BOOLEAN PRIMARY KEY DEFAULT true CHECK (only_row),
  fence    BIGINT NOT NULL DEFAULT 0
);
INSERT INTO tournament_leader (only_row, fence) VALUES (true, 0);
