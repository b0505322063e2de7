-- A seat that forfeited (the fallback bot took too many of its decisions in a row)
-- ranks last; the flag is part of the stored game.
ALTER TABLE game_seats ADD COLUMN forfeited BOOLEAN NOT NULL DEFAULT false;

-- A game the ratings service decided not to rate (no winner, an unregistered ladder,
-- ...) is recorded too, with why, so that the decision is taken once like a rating.
ALTER TABLE rated_games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE rated_games ADD COLUMN not_rated_reason TEXT NOT NULL DEFAULT '';
