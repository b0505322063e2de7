// The matchmaker's round: for every ladder, expire tickets whose players stopped
// sending heartbeats, put back tickets a dead replica left half-placed, form
// tables (matching.h), claim each table's tickets (ticket_store.h: atomic, so any
// number of replicas may run rounds at once), create its game on the game host
// with the most room, and hand every ticket its assignment. A table whose game
// cannot be created goes back to the queue with its waiting time kept.
#pragma once

#include <grpcpp/support/status.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/config.h"
#include "metropolis/v1/gamehost.pb.h"
#include "services/matchmaker/matching.h"
#include "services/matchmaker/metrics.h"
#include "services/matchmaker/ticket_store.h"

namespace metropolis::matchmaker {

struct LadderConfig {
  std::string id;
  int season = 0;        // the open season; 0: games are not rated
  RulesOptions options;  // the ruleset and its options (ParseLadderOptions)
  uint32_t decision_ms = 10'000, time_bank_ms = 60'000;
  double mu = 25;  // a newcomer's rating
  MatchRules rules;
};

// The ladder's ruleset ("cities_and_knights" or "base") and its options text
// ("name=value ..."), or false with *error.
bool ParseLadderOptions(const std::string& ruleset, const std::string& text, RulesOptions* out, std::string* error);

// Creates a game on a host (the gRPC client in production, a fake in tests).
class GameCreator {
 public:
  virtual ~GameCreator() = default;
  virtual grpc::Status Create(const std::string& host, const v1::CreateGameRequest& request,
                              v1::CreateGameResponse* response) = 0;
  // Asks the host about a game it runs: OK while the host knows it, NOT_FOUND
  // once it does not (the host restarted), UNAVAILABLE when the host is gone.
  // Tournaments use it to find games lost with their host.
  virtual grpc::Status Probe(const std::string& /*host*/, const std::string& /*game_id*/) { return grpc::Status::OK; }
  // The host's view of a game (GameHost.GetGame): its status, or in `host` the
  // host it moved to. The matchmaker asks before handing out a seat again.
  virtual grpc::Status Lookup(const std::string& /*host*/, const std::string& /*game_id*/, v1::GameInfo* /*out*/) {
    return {grpc::StatusCode::UNIMPLEMENTED, "this creator cannot look games up"};
  }
  // The seats the request's identities hold in live games of its ladder on the
  // host (GameHost.SeatsOf), with a fresh token for each not played now. A round
  // asks every live host at once: called from several threads together.
  virtual grpc::Status SeatsOf(const std::string& /*host*/, const v1::SeatsOfRequest& /*request*/,
                               v1::SeatsOfResponse* /*out*/) {
    return grpc::Status::OK;
  }
};

struct MatchmakerOptions {
  int64_t ticket_ttl_ms = 10'000;  // a queued ticket without a heartbeat for this long expires
  int64_t host_ttl_ms = 15'000;    // a host without a heartbeat for this long gets no games
  // ... and for this long is forgotten: not listed to players, the gateway or the
  // tournaments, so a host that went away is not asked about games for ever.
  int64_t host_forget_ms = 60'000;
  int64_t matched_timeout_ms = 30'000;  // a claimed table not placed in this time goes back to the queue
  // A game created whose assignments cannot be written (Redis unreachable) is
  // retried this long, well inside matched_timeout_ms: its tickets must not go
  // back to the queue and into a second game while this one waits for them.
  int64_t assign_retry_ms = 20'000;
  std::string bot = "heuristic";  // the built-in bot of filled seats
  // Expiry reads every queued ticket: a replica runs it at most this often on a
  // ladder (so a ticket expires at most this late; 0: every round).
  int64_t expire_every_ms = 1'000;
  // A table is claimed only if each of its tickets had a heartbeat this recently
  // (by Redis's clock; a replica reads its waiting streams' tickets every 500 ms,
  // waiters.h). A ticket a Redis failover put
  // back in the queue (its claim lost) has none: its player plays elsewhere, and
  // seating it again would put the player at two tables. 0: not checked (only
  // as a negative control, protection "fresh_claim").
  int64_t claim_fresh_ms = 2'000;
  // Before a table is seated, the live hosts are asked whether its players hold
  // seats in live games of the ladder already (Redis lost their assignments): such
  // a player gets that seat again, and the rest of the table waits in the queue.
  // Off only as a negative control (protection "held_seats").
  bool check_held_seats = true;
  // This replica's name among the matchmaker replicas sharing the ticket store.
  // The live replicas share the ladders out (LadderOwner): each round runs only
  // the ladders this one owns, so replicas add throughput instead of racing for
  // the same tables. Empty: every ladder, every round (one replica, the tests).
  // Sharing is for throughput only: claims stay atomic, so two replicas that
  // both believe they own a ladder (one not yet told of the other) lose races,
  // never seat a ticket twice.
  std::string replica{};
  // A replica not heard from for this long (by the store's clock) no longer
  // owns ladders: the others take them over. Each round announces the replica.
  int64_t replica_ttl_ms = 3'000;
  // A round that runs longer than this asks again which replicas are live before
  // each further ladder and table, and leaves the ladders another replica now
  // owns (a replica that joined meanwhile). 0: every time; -1: never (a negative
  // control).
  int64_t recheck_owners_ms = 100;
  MatchmakerMetrics* metrics = nullptr;  // tables, placements, queues, hosts; null: nothing is counted
};

// The replica among `replicas` that runs `ladder`'s rounds: the one whose name
// hashed with the ladder's is highest (rendezvous hashing), so every replica
// computes the same owner from the same list, and a replica joining or leaving
// moves only its own share of the ladders. "" when `replicas` is empty.
std::string LadderOwner(std::string_view ladder, const std::vector<std::string>& replicas);

struct RoundStats {
  int expired = 0, released = 0, tables = 0, placed = 0, failed = 0, lost_races = 0, stale = 0, reseated = 0;
  // The ladders this round ran (those this replica owns) and the live replicas
  // it shared them with (1 when the matchmaker has no replica name).
  int ladders = 0, replicas = 1;
  // Not OK when the round stopped early because the ticket store did not answer
  // (UNAVAILABLE, or INTERNAL for a failed script; the counts above are then
  // incomplete); the next round starts over.
  grpc::Status error;
};

class Matchmaker {
 public:
  Matchmaker(TicketStore* tickets, GameCreator* creator, MatchmakerOptions options);

  // One round over `ladders` at `now_ms`; what the ticket store answered when it
  // failed is in RoundStats::error. One thread runs a Matchmaker's rounds.
  RoundStats RunRound(const std::vector<LadderConfig>& ladders, int64_t now_ms);

  // The game request for a claimed table (exposed for tests).
  v1::CreateGameRequest GameFor(const LadderConfig& ladder, const std::vector<Ticket>& players, int bots,
                                const std::string& game_id) const;

 private:
  // The live seats that identities hold in the ladder's games, by identity, with
  // the host that runs each (asked once a round, of every live host).
  using HeldSeats = std::unordered_map<int64_t, std::pair<std::string, v1::HeldSeat>>;

  // These answer the ticket store's status when it failed: the round stops.
  grpc::Status Place(const LadderConfig& ladder, const Table& table,
                     const std::unordered_map<std::string_view, const Ticket*>& by_id, const HeldSeats& held,
                     int64_t now_ms, RoundStats* stats);
  grpc::Status AskHeldSeats(const LadderConfig& ladder, const std::vector<Table>& tables,
                            const std::unordered_map<std::string_view, const Ticket*>& by_id, int64_t now_ms,
                            HeldSeats* held);
  // *holding: players of a claimed table hold seats in live games already; they
  // get those seats again and the table is not seated (the rest back in the queue).
  grpc::Status SeatsHeld(const LadderConfig& ladder, const std::string& table_id, const std::vector<Ticket>& players,
                         const HeldSeats& held, RoundStats* stats, bool* holding);
  // The ladders of `ladders` this replica owns now (all without a replica name).
  grpc::Status Owned(const std::vector<LadderConfig>& ladders, int64_t now_ms, std::vector<const LadderConfig*>* mine,
                     RoundStats* stats);
  // Announces this replica and reads the live ones into live_ (itself included).
  grpc::Status ReadLive(int64_t now_ms);
  // Whether this replica still owns `ladder`, asked again when the round has run
  // longer than recheck_owners_ms since the replicas were last read.
  grpc::Status StillOwned(const LadderConfig& ladder, bool* owned);
  // Assign with retries for options_.assign_retry_ms while the store is
  // UNAVAILABLE; answers what Assign answered after that.
  grpc::Status AssignCreated(const std::string& ladder, const std::string& table_id, const std::vector<Seating>& seats);

  TicketStore* tickets_;
  GameCreator* creator_;
  const MatchmakerOptions options_;
  std::unordered_map<std::string, int64_t> last_expiry_ms_;  // by ladder
  int64_t last_hosts_ms_ = INT64_MIN;                        // the hosts' registry last read (for metrics)
  std::vector<std::string> owned_;                           // the ladders owned last round (logged when it changes)
  std::vector<std::string> live_;                            // the live replicas, as last read
  std::chrono::steady_clock::time_point live_read_at_;       // ... when
};

}  // namespace metropolis::matchmaker
