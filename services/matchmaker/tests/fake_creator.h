// A game creator for the matchmaker's tests: records every game, hands out one
// token per seat, and answers Lookup with what the test set for each game.
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "services/matchmaker/matchmaker.h"

namespace metropolis::matchmaker::testing {

class FakeCreator final : public GameCreator {
 public:
  grpc::Status Create(const std::string& host, const v1::CreateGameRequest& request,
                      v1::CreateGameResponse* response) override {
    std::lock_guard lock(mutex_);
    if (fail || down.count(host)) return {grpc::StatusCode::UNAVAILABLE, "host down"};
    if (!create_error.ok()) return create_error;
    // As a host does: a game id it runs is not created again.
    if (refuse_duplicates && std::any_of(games.begin(), games.end(), [&](const v1::CreateGameRequest& g) {
          return g.game_id() == request.game_id() && created_on[g.game_id()] == host;
        }))
      return {grpc::StatusCode::ALREADY_EXISTS, "game " + request.game_id() + " exists"};
    games.push_back(request);
    created_on[request.game_id()] = host;
    response->set_game_id(request.game_id());
    response->set_host(host);
    for (int s = 0; s < request.seats_size(); ++s)
      response->add_seat_tokens(request.seats(s).built_in() ? ""
                                                            : "tok-" + request.game_id() + "-" + std::to_string(s));
    return grpc::Status::OK;
  }
  // A game the test named answers with its status (or `lookup_error`); any
  // other is live.
  grpc::Status Lookup(const std::string& host, const std::string& game_id, v1::GameInfo* out) override {
    std::lock_guard lock(mutex_);
    ++lookups;
    if (!lookup_error.ok()) return lookup_error;
    out->set_game_id(game_id);
    out->set_host(host);
    auto it = status.find(game_id);
    out->set_status(it == status.end() ? v1::GAME_STATUS_LIVE : it->second);
    return grpc::Status::OK;
  }

  // The seats the test says identities hold, as every host asked answers.
  grpc::Status SeatsOf(const std::string&, const v1::SeatsOfRequest& request, v1::SeatsOfResponse* out) override {
    std::unique_lock lock(mutex_);
    ++seats_of_calls;
    // With seats_of_together set, each call waits (at most 5 s) until that many
    // are in flight: a caller that asks one host after the other never gets there.
    ++in_flight_;
    max_seats_of_in_flight = std::max(max_seats_of_in_flight, in_flight_);
    together_.notify_all();
    together_.wait_for(lock, std::chrono::seconds(5), [this] { return max_seats_of_in_flight >= seats_of_together; });
    --in_flight_;
    for (const v1::HeldSeat& h : held)
      for (int64_t id : request.identity_ids())
        if (h.identity_id() == id) *out->add_seats() = h;
    return grpc::Status::OK;
  }

  std::mutex mutex_;
  std::vector<v1::CreateGameRequest> games;
  std::vector<v1::HeldSeat> held;
  int seats_of_calls = 0;
  int seats_of_together = 0, max_seats_of_in_flight = 0;
  bool fail = false;
  std::set<std::string> down;  // hosts that do not answer Create
  bool refuse_duplicates = false;
  grpc::Status create_error = grpc::Status::OK;   // every Create answers this (after `fail`)
  std::map<std::string, std::string> created_on;  // game id → the host it was last created on
  std::map<std::string, v1::GameStatus> status;
  grpc::Status lookup_error = grpc::Status::OK;
  int lookups = 0;

 private:
  std::condition_variable together_;
  int in_flight_ = 0;
};

}  // namespace metropolis::matchmaker::testing
