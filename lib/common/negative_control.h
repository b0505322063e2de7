// Negative controls (docs/FAILURES.md, "Negative controls"): a fault test is worth
// something only if it fails when the protection it guards is missing. A build
// configured with METROPOLIS_NEGATIVE_CONTROLS=ON (test builds; a Release build
// refuses the option) reads METROPOLIS_REMOVE_PROTECTION, a comma-separated list of
// protection names, and switches those off. Every other build ignores the variable.
//
// Protections: "pause" — a game whose checkpoint cannot be written pauses instead
// of playing on (services/gamehost/game.h). "redis_clock" — takeovers wait until
// Redis has served a whole lease since its last gap (services/gamehost). "redis_readonly"
// — a Redis connection whose server cannot take writes is dropped, so that the next
// one finds the primary (lib/storage/redis.h). "spent_seat" — the matchmaker asks a
// game's host whether the game is over before it hands the seat out again
// (services/matchmaker/service.h). "fresh_claim" — the matchmaker seats only tickets
// with a recent heartbeat (services/matchmaker/matchmaker.h). "held_seats" — before
// it seats a table, the matchmaker asks the hosts whether its players hold live
// seats already, and hands those again (services/matchmaker/matchmaker.cc). "rewrite_lost" — a game host whose game's
// checkpoint Redis lost (in part or whole) writes it again from its own log
// (services/gamehost/redis_checkpoints.cc). "seen_step" — a host voids a game a
// seat saw further than the host's copy, rather than rewind it (game.h).
// "keep_until_delivered" — a finished game's checkpoint stays in Redis until the
// replays service holds the game, so a host that dies with games in its outbox
// loses none (services/gamehost/server.cc). "one_clock" — matchmaker replicas write
// and compare every time on Redis's clock, not their own
// (services/matchmaker/redis_ticket_store.h). "claimed_table" — a table's seats are handed
// out or released only while its own claim holds (the same file). "tournament_fence"
// — a tournament scheduler's changes carry its fencing token, and a stale
// leader's are refused (services/matchmaker/tournaments/pg_tournament_store.h).
// "hidden_games" — the replays service shows a tournament's game only once the
// tournaments service has revealed it (services/replays/visibility.h).
// "deliver_until_acknowledged" — a game host keeps a completed game in its outbox,
// retrying, until the replays and ratings services acknowledged it
// (services/gamehost/outbox.cc).
// "current_attempt" — a tournament game's result counts only for the attempt the
// schedule holds now, never for one it played again (tournaments/pg_tournament_store.cc).
// "board_versions" — a leaderboard read compares the board's version in Redis
// with PostgreSQL's and rebuilds the board on any difference
// (services/ratings/ratings.h).
// "one_result" — the ratings service refuses a different second result for a
// game it decided (services/ratings/rate.h, SameResult).
// "fair_bots" — a game host's bot threads take games in turn, one task of a game
// at a time, instead of one FIFO queue (services/gamehost/executor.h, FairPool).
// "sealed_seats" — the Accounts service stores people's seat tokens sealed with
// its seat key, and seals those it finds in the clear (services/accounts/pg_people_store.h).
// "bound_seats" — a sealed seat token is bound to its row (identity, game, seat,
// host), so that one copied to another row does not open (the same file).
// "write_before_release" — a game whose append is with the checkpoint writer
// releases nothing of its steps until the store answered (services/gamehost/game.h).
// "analysis_bound" — the replays service's analysis queue refuses (and counts)
// jobs beyond its bound instead of queueing them (services/replays/analysis_queue.h).
// "start_entrants" — a tournament starts only with the entrants its scheduler read
// (services/matchmaker/tournaments/pg_tournament_store.cc, Start).
// "lockstep" — a game host holds back a duplicate set's rotation that is more than
// a few chance draws ahead of the slowest (services/gamehost/lockstep.h).
#pragma once

#include <string_view>

namespace metropolis::services {

// Whether `name` is switched off in this process (logged once, as a warning).
bool ProtectionRemoved(std::string_view name);

}  // namespace metropolis::services
