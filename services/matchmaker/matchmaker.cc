#include "services/matchmaker/matchmaker.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <random>
#include <thread>
#include <unordered_map>

#include "lib/common/grpc_util.h"
#include "lib/common/log.h"
#include "lib/common/request_id.h"
#include "lib/common/secret.h"
#include "lib/protocol/convert.h"

namespace metropolis::matchmaker {
namespace {

// 64-bit FNV-1a, then a SplitMix64 finalizer: the same on every replica and
// build (std::hash is not promised to be), and well mixed for short names.
uint64_t Hash(std::string_view a, std::string_view b) {
  uint64_t h = 14695981039346656037ull;
  const auto add = [&h](std::string_view s) {
    for (const unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  };
  add(a);
  h = (h ^ 0xffu) * 1099511628211ull;  // a separator no name byte equals in UTF-8
  add(b);
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

}  // namespace

std::string LadderOwner(std::string_view ladder, const std::vector<std::string>& replicas) {
  const std::string* best = nullptr;
  uint64_t best_hash = 0;
  for (const std::string& r : replicas) {
    const uint64_t h = Hash(ladder, r);
    if (!best || h > best_hash || (h == best_hash && r < *best)) best = &r, best_hash = h;
  }
  return best ? *best : std::string();
}

bool ParseLadderOptions(const std::string& ruleset, const std::string& text, RulesOptions* out, std::string* error) {
  if (ruleset != "cities_and_knights" && ruleset != "base") {
    *error = "ruleset '" + ruleset + "' is neither cities_and_knights nor base";
    return false;
  }
  *out = DefaultOptions(ruleset == "base" ? Ruleset::kBase : Ruleset::kCitiesAndKnights);
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t start = text.find_first_not_of(' ', pos);
    if (start == std::string::npos) break;
    const size_t end = std::min(text.find(' ', start), text.size());
    if (std::string e = ParseOption(std::string_view(text).substr(start, end - start), out); !e.empty()) {
      *error = "options: " + e;
      return false;
    }
    pos = end;
  }
  return true;
}

Matchmaker::Matchmaker(TicketStore* tickets, GameCreator* creator, MatchmakerOptions options)
    : tickets_(tickets), creator_(creator), options_(std::move(options)) {}

v1::CreateGameRequest Matchmaker::GameFor(const LadderConfig& ladder, const std::vector<Ticket>& players, int bots,
                                          const std::string& game_id) const {
  v1::CreateGameRequest request;
  const int seats = int(players.size()) + bots;
  GameConfig config;
  config.num_seats = seats;
  config.options = ladder.options;
  protocol::ConfigToProto(config, request.mutable_config());
  // A fresh random board per game, drawn from the game id's hash.
  request.mutable_config()->clear_board();
  request.mutable_config()->set_random_board_seed(std::hash<std::string>{}(game_id) | 1);
  // Seats in a random order: who starts must not depend on who waited longest.
  std::vector<int> order(static_cast<size_t>(seats));
  for (int i = 0; i < seats; ++i) order[size_t(i)] = i;
  std::mt19937_64 rng(std::hash<std::string>{}(game_id));
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<v1::SeatSpec> specs(static_cast<size_t>(seats));
  for (int i = 0; i < seats; ++i) {
    v1::SeatSpec& spec = specs[size_t(order[size_t(i)])];
    if (i < int(players.size())) {
      spec.set_name(players[size_t(i)].name);
      spec.set_identity_id(players[size_t(i)].identity_id);
      spec.set_fallback_bot(options_.bot);
    } else {
      spec.set_name("bot:" + options_.bot);
      spec.set_built_in(true);
      spec.set_fallback_bot(options_.bot);
    }
  }
  for (auto& spec : specs) *request.add_seats() = std::move(spec);
  request.mutable_deadlines()->set_decision_ms(ladder.decision_ms);
  request.mutable_deadlines()->set_time_bank_ms(ladder.time_bank_ms);
  request.set_game_id(game_id);
  request.set_ladder(ladder.id);
  request.set_season(uint32_t(ladder.season));
  return request;
}

grpc::Status Matchmaker::Place(const LadderConfig& ladder, const Table& table,
                               const std::unordered_map<std::string_view, const Ticket*>& by_id, const HeldSeats& held,
                               int64_t now_ms, RoundStats* stats) {
  const std::string table_id = services::RandomSecretHex(8);
  bool claimed = false, stale = false;
  if (grpc::Status s = tickets_->Claim(ladder.id, table, table_id, now_ms, options_.claim_fresh_ms, &claimed, &stale);
      !s.ok())
    return s;
  if (!claimed) {
    // Another replica seated one of them, or a player left; or a ticket nobody
    // waits on, which expires without heartbeats (ExpireStale).
    ++(stale ? stats->stale : stats->lost_races);
    return grpc::Status::OK;
  }
  ++stats->tables;
  if (options_.metrics) options_.metrics->TableFormed(ladder.id);
  // The game's story starts here: its lines in every service carry this
  // request id and the game id (docs/OBSERVABILITY.md).
  const std::string game_id = "m-" + table_id;
  services::LogContext log_context(services::NewRequestId(), game_id);
  std::vector<Ticket> players;
  for (const std::string& id : table.tickets) players.push_back(*by_id.at(id));
  bool holding = false;
  if (grpc::Status s = SeatsHeld(ladder, table_id, players, held, stats, &holding); !s.ok() || holding) return s;
  std::string host;
  bool picked = false;
  if (grpc::Status s = tickets_->PickHost(now_ms, options_.host_ttl_ms, 1, &host, &picked); !s.ok()) return s;
  int released = 0;
  if (!picked) {
    services::LogWarning("no game host has room; the table waits", {{"ladder", ladder.id}});
    if (options_.metrics) options_.metrics->PlacementFailed(ladder.id, "no_host");
    if (grpc::Status s = tickets_->Release(ladder.id, table_id, table.tickets, &released); !s.ok()) return s;
    ++stats->failed;
    return grpc::Status::OK;
  }
  const v1::CreateGameRequest request = GameFor(ladder, players, table.bots, game_id);
  v1::CreateGameResponse response;
  const grpc::Status status = creator_->Create(host, request, &response);
  if (!status.ok()) {
    services::LogWarning("creating a game failed; the table goes back to the queue",
                         {{"ladder", ladder.id},
                          {"host", host},
                          {"code", services::StatusCodeName(status.error_code())},
                          {"error", status.error_message()}});
    if (options_.metrics) options_.metrics->PlacementFailed(ladder.id, "create_failed");
    if (grpc::Status s = tickets_->MarkHostDown(host); !s.ok()) return s;
    if (grpc::Status s = tickets_->Release(ladder.id, table_id, table.tickets, &released); !s.ok()) return s;
    ++stats->failed;
    return grpc::Status::OK;
  }
  std::vector<Seating> seats;
  for (size_t p = 0; p < players.size(); ++p) {
    // The player's seat is the one with its identity (seats were shuffled).
    for (int s = 0; s < request.seats_size(); ++s) {
      if (request.seats(s).identity_id() != players[p].identity_id || request.seats(s).built_in()) continue;
      seats.push_back(
          {players[p].id,
           players[p].identity_id,
           {response.game_id(), response.host().empty() ? host : response.host(),
            s < response.seat_tokens_size() ? response.seat_tokens(s) : "", s, response.chance_commitment()}});
      break;
    }
  }
  if (grpc::Status s = AssignCreated(ladder.id, table_id, seats); !s.ok()) return s;
  ++stats->placed;
  if (options_.metrics)
    for (const Ticket& player : players)
      options_.metrics->Matched(ladder.id, double(now_ms - player.enqueued_ms) / 1000);
  services::LogInfo("game created", {{"ladder", ladder.id},
                                     {"game", response.game_id()},
                                     {"host", host},
                                     {"players", std::to_string(players.size())},
                                     {"bots", std::to_string(table.bots)}});
  return grpc::Status::OK;
}

// Nobody holds two seats at once. A player whose assignment Redis lost (a failover
// to a replica that missed it) queues again, with a live ticket; seated at a new
// table, it would leave its seat in the first game to the fallback bot, and that
// game would be stored and rated with the seat forfeited — a game the player never
// saw. Only the first game's host still knows that seat, so before a round seats
// its tables the live hosts are asked (one call per host per ladder and round) which
// seats the tables' players hold.
grpc::Status Matchmaker::AskHeldSeats(const LadderConfig& ladder, const std::vector<Table>& tables,
                                      const std::unordered_map<std::string_view, const Ticket*>& by_id, int64_t now_ms,
                                      HeldSeats* held) {
  held->clear();
  if (!options_.check_held_seats) return grpc::Status::OK;
  // At most kSeatsOfBatch identities a call (the host's limit is 4096).
  constexpr int kSeatsOfBatch = 4096;
  std::vector<v1::SeatsOfRequest> requests;
  for (const Table& table : tables) {
    for (const std::string& id : table.tickets) {
      if (requests.empty() || requests.back().identity_ids_size() == kSeatsOfBatch) {
        requests.emplace_back();
        requests.back().set_ladder(ladder.id);
      }
      requests.back().add_identity_ids(by_id.at(id)->identity_id);
    }
  }
  if (requests.empty()) return grpc::Status::OK;
  // Every live host at once: the round waits for the slowest answer (or the
  // call's deadline), not for the sum of them.
  struct Answer {
    std::string host;
    grpc::Status status;
    std::vector<v1::HeldSeat> seats;
  };
  const auto ask = [this, &requests](const std::string& host) {
    Answer answer{host, grpc::Status::OK, {}};
    for (const v1::SeatsOfRequest& request : requests) {
      v1::SeatsOfResponse response;
      answer.status = creator_->SeatsOf(host, request, &response);
      if (!answer.status.ok()) break;
      answer.seats.insert(answer.seats.end(), response.seats().begin(), response.seats().end());
    }
    return answer;
  };
  std::vector<HostInfo> hosts;
  if (grpc::Status s = tickets_->Hosts(&hosts); !s.ok()) return s;
  std::vector<std::future<Answer>> asked;
  for (const HostInfo& h : hosts) {
    if (h.seen_ms < now_ms - options_.host_ttl_ms) continue;
    asked.push_back(std::async(std::launch::async, ask, h.address));
  }
  for (auto& pending : asked) {
    const Answer answer = pending.get();
    for (const v1::HeldSeat& seat : answer.seats) held->try_emplace(seat.identity_id(), answer.host, seat);
    if (!answer.status.ok()) {
      // A host that cannot answer gets no games until its next heartbeat (as when
      // a creation fails); its games move to hosts that answer for them.
      services::LogWarning("a game host did not say which seats it holds; it gets no games for now",
                           {{"host", answer.host},
                            {"code", services::StatusCodeName(answer.status.error_code())},
                            {"error", answer.status.error_message()}});
      if (grpc::Status s = tickets_->MarkHostDown(answer.host); !s.ok()) return s;
    }
  }
  return grpc::Status::OK;
}

// A player holding a seat no stream plays gets it again (a fresh token); one whose
// seat a stream plays now (it queued from elsewhere) waits in the queue; and the
// rest of the table goes back to the queue with its waiting time.
grpc::Status Matchmaker::SeatsHeld(const LadderConfig& ladder, const std::string& table_id,
                                   const std::vector<Ticket>& players, const HeldSeats& held, RoundStats* stats,
                                   bool* holding) {
  *holding = std::any_of(players.begin(), players.end(), [&](const Ticket& p) { return held.count(p.identity_id); });
  if (!*holding) return grpc::Status::OK;
  std::vector<Seating> again;
  std::vector<std::string> release;
  for (const Ticket& p : players) {
    auto it = held.find(p.identity_id);
    if (it == held.end() || it->second.second.connected()) {
      if (it != held.end())
        services::LogDebug("player at a live table queued again",
                           {{"ladder", ladder.id}, {"ticket", p.id}, {"game", it->second.second.game_id()}});
      release.push_back(p.id);
      continue;
    }
    const auto& [host, seat] = it->second;
    again.push_back(
        {p.id, p.identity_id, {seat.game_id(), host, seat.seat_token(), int(seat.seat()), seat.chance_commitment()}});
    services::LogInfo(
        "player given again the seat it holds",
        {{"ladder", ladder.id}, {"ticket", p.id}, {"game", seat.game_id()}, {"seat", std::to_string(seat.seat())}});
  }
  if (!again.empty()) {
    if (grpc::Status s = AssignCreated(ladder.id, table_id, again); !s.ok()) return s;
  }
  int released = 0;
  if (grpc::Status s = tickets_->Release(ladder.id, table_id, release, &released); !s.ok()) return s;
  stats->reseated += int(again.size());
  return grpc::Status::OK;
}

// The game exists on its host now. Were its tickets released to the queue
// instead, they would be seated again in another game while this one is played
// by the fallback bot under their names, stored and rated: a player counted in a
// game it never played. So a Redis that is briefly away (a restart) is waited
// for, while the claim still holds the tickets.
grpc::Status Matchmaker::AssignCreated(const std::string& ladder, const std::string& table_id,
                                       const std::vector<Seating>& seats) {
  const auto start = std::chrono::steady_clock::now();
  int backoff_ms = 100;
  for (int attempt = 1;; ++attempt) {
    int assigned = 0;
    const grpc::Status s = tickets_->Assign(ladder, table_id, seats, &assigned);
    if (s.ok()) {
      if (attempt > 1) services::LogInfo("game assigned after retries", {{"attempts", std::to_string(attempt)}});
      if (assigned < int(seats.size())) {
        // The claim lapsed while the game was being created (this replica was
        // paused past matched_timeout_ms, or Redis lost the claim): those tickets
        // went back to the queue and may sit at another table now. Handing them
        // this seat too would seat a player twice. Nobody gets those seats: a
        // game none of whose players join is void at its start (never stored or
        // rated); one some of them joined plays the others' seats with the
        // fallback bot, which the record shows.
        services::LogError("a table's claim lapsed before its seats were handed out; those seats go to nobody",
                           {{"ladder", ladder},
                            {"table", table_id},
                            {"seats", std::to_string(seats.size())},
                            {"assigned", std::to_string(assigned)}});
        if (options_.metrics) options_.metrics->PlacementFailed(ladder, "claim_lapsed");
      }
      return s;
    }
    // Anything but UNAVAILABLE (Redis answered the script with an error): another
    // try gets the same answer. Said as loudly as a retry that ran out.
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    if (s.error_code() != grpc::StatusCode::UNAVAILABLE || waited.count() + backoff_ms > options_.assign_retry_ms) {
      services::LogError("assigning a created game failed; its seats are played by the fallback bot",
                         {{"ladder", ladder}, {"attempts", std::to_string(attempt)}, {"error", s.error_message()}});
      if (options_.metrics) options_.metrics->PlacementFailed(ladder, "assign_failed");
      return s;
    }
    if (attempt == 1)
      services::LogWarning("assigning a created game failed; retrying",
                           {{"ladder", ladder}, {"error", s.error_message()}});
    std::this_thread::sleep_for(std::chrono::milliseconds(backoff_ms));
    backoff_ms = std::min(backoff_ms * 2, 2'000);
  }
}

grpc::Status Matchmaker::Owned(const std::vector<LadderConfig>& ladders, int64_t now_ms,
                               std::vector<const LadderConfig*>* mine, RoundStats* stats) {
  mine->clear();
  if (options_.replica.empty()) {
    for (const LadderConfig& l : ladders) mine->push_back(&l);
    stats->ladders = int(mine->size());
    if (options_.metrics) options_.metrics->LaddersOwned(mine->size(), 1);
    return grpc::Status::OK;
  }
  if (grpc::Status s = ReadLive(now_ms); !s.ok()) return s;
  const std::vector<std::string>& live = live_;
  std::vector<std::string> owned;
  for (const LadderConfig& l : ladders) {
    if (LadderOwner(l.id, live) == options_.replica) {
      mine->push_back(&l);
      owned.push_back(l.id);
    } else if (options_.metrics) {
      // The owner reports the ladder's depth; the others 0, so max() (or sum())
      // across replicas is the depth whoever owned it before.
      options_.metrics->QueueDepth(l.id, 0);
    }
  }
  stats->ladders = int(mine->size());
  stats->replicas = int(live.size());
  if (owned != owned_) {
    std::string names;
    for (const std::string& id : owned) names += (names.empty() ? "" : ",") + id;
    services::LogInfo("ladders owned by this matchmaker replica changed",
                      {{"replica", options_.replica},
                       {"replicas", std::to_string(live.size())},
                       {"ladders", std::to_string(owned.size()) + " of " + std::to_string(ladders.size())},
                       {"owned", names.size() > 300 ? names.substr(0, 300) + "..." : names}});
    owned_ = std::move(owned);
  }
  if (options_.metrics) options_.metrics->LaddersOwned(mine->size(), live.size());
  return grpc::Status::OK;
}

grpc::Status Matchmaker::ReadLive(int64_t now_ms) {
  std::vector<std::string> live;
  if (grpc::Status s = tickets_->ReplicaHeartbeat(options_.replica, now_ms, options_.replica_ttl_ms, &live); !s.ok())
    return s;
  // Itself, whatever the store answered (it has just been heard).
  if (std::find(live.begin(), live.end(), options_.replica) == live.end()) live.push_back(options_.replica);
  live_ = std::move(live);
  live_read_at_ = std::chrono::steady_clock::now();
  return grpc::Status::OK;
}

grpc::Status Matchmaker::StillOwned(const LadderConfig& ladder, bool* owned) {
  *owned = true;
  if (options_.replica.empty() || options_.recheck_owners_ms < 0) return grpc::Status::OK;
  if (std::chrono::steady_clock::now() - live_read_at_ < std::chrono::milliseconds(options_.recheck_owners_ms))
    return grpc::Status::OK;
  // The store's time now, not the round's start (which a store on the caller's
  // clock would take for this replica's last word).
  int64_t now_ms = 0;
  if (grpc::Status s = tickets_->Now(&now_ms); !s.ok()) return s;
  if (grpc::Status s = ReadLive(now_ms); !s.ok()) return s;
  *owned = LadderOwner(ladder.id, live_) == options_.replica;
  return grpc::Status::OK;
}

RoundStats Matchmaker::RunRound(const std::vector<LadderConfig>& ladders, int64_t now_ms) {
  RoundStats stats;
  // The hosts' registry is read once a second, to forget the hosts that went
  // silent and for the metric.
  if (last_hosts_ms_ == INT64_MIN || now_ms < last_hosts_ms_ || now_ms - last_hosts_ms_ >= 1000) {
    last_hosts_ms_ = now_ms;
    std::vector<std::string> forgotten;
    if (stats.error = tickets_->ForgetHosts(now_ms, options_.host_forget_ms, &forgotten); !stats.error.ok())
      return stats;
    for (const std::string& address : forgotten)
      services::LogInfo("forgot a game host: no heartbeat for a while",
                        {{"host", address}, {"after_ms", std::to_string(options_.host_forget_ms)}});
    std::vector<HostInfo> hosts;
    if (stats.error = tickets_->Hosts(&hosts); !stats.error.ok()) return stats;
    size_t alive = 0;
    for (const HostInfo& h : hosts) alive += h.seen_ms >= now_ms - options_.host_ttl_ms;
    if (options_.metrics) options_.metrics->HostsKnown(alive);
  }
  std::vector<const LadderConfig*> mine;
  if (stats.error = Owned(ladders, now_ms, &mine, &stats); !stats.error.ok()) return stats;
  for (const LadderConfig* owned : mine) {
    const LadderConfig& ladder = *owned;
    bool still = true;
    if (stats.error = StillOwned(ladder, &still); !stats.error.ok()) return stats;
    if (!still) {
      --stats.ladders;  // another replica's now: it runs it from its next round
      continue;
    }
    auto last_expiry = last_expiry_ms_.try_emplace(ladder.id, INT64_MIN).first;
    if (last_expiry->second == INT64_MIN || now_ms < last_expiry->second ||
        now_ms - last_expiry->second >= options_.expire_every_ms) {
      int expired = 0;
      if (stats.error = tickets_->ExpireStale(ladder.id, now_ms, options_.ticket_ttl_ms, &expired); !stats.error.ok())
        return stats;
      if (options_.metrics) options_.metrics->TicketsExpired(ladder.id, expired);
      stats.expired += expired;
      last_expiry->second = now_ms;
    }
    int released = 0;
    if (stats.error = tickets_->ReleaseStuck(ladder.id, now_ms, options_.matched_timeout_ms, &released);
        !stats.error.ok())
      return stats;
    stats.released += released;
    std::vector<Ticket> queue;
    if (stats.error = tickets_->Queue(ladder.id, &queue); !stats.error.ok()) return stats;
    if (options_.metrics) options_.metrics->QueueDepth(ladder.id, queue.size());
    if (queue.empty()) continue;
    const std::vector<Table> tables = FormTables(queue, ladder.rules, now_ms);
    if (tables.empty()) continue;
    // Once a round: indexing the queue for every table made a round quadratic in its size.
    std::unordered_map<std::string_view, const Ticket*> by_id;
    by_id.reserve(queue.size());
    for (const Ticket& t : queue) by_id.emplace(t.id, &t);
    HeldSeats held;
    if (stats.error = AskHeldSeats(ladder, tables, by_id, now_ms, &held); !stats.error.ok()) return stats;
    for (const Table& table : tables) {
      // A ladder's tables may take seconds to place (thousands of them after an
      // outage): a replica that joined meanwhile and owns the ladder now seats
      // the rest, instead of both racing for every table.
      if (stats.error = StillOwned(ladder, &still); !stats.error.ok()) return stats;
      if (!still) break;
      if (stats.error = Place(ladder, table, by_id, held, now_ms, &stats); !stats.error.ok()) return stats;
    }
  }
  return stats;
}

}  // namespace metropolis::matchmaker
