-- Practice games are limited per person (the gateway's --max-practice-games):
-- the People service counts a person's open practice seats and reserves one in
-- the same transaction (ReservePracticeSeat), before the gateway creates the
-- game. A reservation is a row with an empty host and token until SaveSeat
-- fills it in. Seats stored before this migration are not known to be practice
-- and do not count.
ALTER TABLE web_seats ADD COLUMN practice BOOLEAN NOT NULL DEFAULT false;
CREATE INDEX web_seats_open_practice ON web_seats (identity_id) WHERE practice AND finished_at IS NULL;
