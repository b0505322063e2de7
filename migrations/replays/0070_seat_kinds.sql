-- Who played each seat (SeatRecord.kind, proto/metropolis/v1/replays.proto): 1 the
-- host's built-in bot, 2 a client over the network with the seat's token. An
-- identity alone cannot say: a network client may have none. Seats stored before
-- keep NULL (SEAT_KIND_UNSPECIFIED) and read as they always did: no identity, a
-- built-in bot. No backfill: nothing stored says which of those was a network
-- client, and a seat with NULL leaves the game's digest what it was.
ALTER TABLE game_seats ADD COLUMN kind SMALLINT CHECK (kind IN (1, 2));
