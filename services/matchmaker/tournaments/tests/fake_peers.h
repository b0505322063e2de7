// The tournaments' peers as the scheduler and the service see them, for their
// tests: a game host that records every game, the replays service's results and
// reveals, and the Accounts service's names.
#pragma once

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "services/matchmaker/matchmaker.h"
#include "services/matchmaker/tournaments/entrants.h"
#include "services/matchmaker/tournaments/results.h"

namespace metropolis::matchmaker::testing {

// Records every game; probes answer `probe` (OK: the host knows the game).
class FakeHost final : public GameCreator {
 public:
  grpc::Status Create(const std::string& host, const v1::CreateGameRequest& request,
                      v1::CreateGameResponse* response) override {
    std::lock_guard lock(mutex);
    if (fail_creates > 0) {
      --fail_creates;
      return {grpc::StatusCode::UNAVAILABLE, "host down"};
    }
    if (refuse_when_created >= 0 && created.size() == size_t(refuse_when_created)) {
      refuse_when_created = -1;
      return refusal;
    }
    created.push_back(request);
    hosts.push_back(host);
    response->set_game_id(request.game_id());
    response->set_host(host);
    for (int s = 0; s < request.seats_size(); ++s)
      response->add_seat_tokens("tok-" + request.game_id() + "-" + std::to_string(s));
    return grpc::Status::OK;
  }
  grpc::Status Probe(const std::string&, const std::string&) override { return probe; }

  std::mutex mutex;
  std::vector<v1::CreateGameRequest> created;
  std::vector<std::string> hosts;  // where each of `created` was asked for
  int fail_creates = 0;
  // Refuses the create that comes once this many games were created, once.
  int refuse_when_created = -1;
  grpc::Status refusal{grpc::StatusCode::RESOURCE_EXHAUSTED, "this host runs 2 games, its limit"};
  grpc::Status probe = grpc::Status::OK;
};

// The replays service as the tournaments see it: the results of stored games,
// and the reveals it acknowledged (`fail` makes every call UNAVAILABLE).
class FakeReplays final : public GameResults {
 public:
  grpc::Status Results(const std::vector<std::string>& game_ids, std::vector<StoredResult>* out) override {
    std::lock_guard lock(mutex);
    out->clear();
    if (fail) return {grpc::StatusCode::UNAVAILABLE, "replays down"};
    for (const std::string& id : game_ids)
      if (auto it = stored.find(id); it != stored.end()) out->push_back(it->second);
    return grpc::Status::OK;
  }
  grpc::Status Reveal(const std::string& tournament, bool whole, const std::vector<std::string>& game_ids) override {
    std::lock_guard lock(mutex);
    ++reveal_calls;
    if (fail) return {grpc::StatusCode::UNAVAILABLE, "replays down"};
    if (whole) revealed.insert(tournament + "/*");
    for (const std::string& id : game_ids) revealed.insert(tournament + "/" + id);
    return grpc::Status::OK;
  }

  std::mutex mutex;
  std::map<std::string, StoredResult> stored;
  std::set<std::string> revealed;  // "tournament/game id", "tournament/*"
  int reveal_calls = 0;
  bool fail = false;
};

// The Accounts service's names as the tournaments see them.
class FakeEntrants final : public EntrantDirectory {
 public:
  grpc::Status Names(const std::vector<int64_t>& ids, std::unordered_map<int64_t, std::string>* out) override {
    std::lock_guard lock(mutex);
    out->clear();
    if (fail) return {grpc::StatusCode::UNAVAILABLE, "accounts down"};
    for (int64_t id : ids)
      if (auto it = names.find(id); it != names.end()) (*out)[id] = it->second;
    return grpc::Status::OK;
  }

  std::mutex mutex;
  std::map<int64_t, std::string> names;
  bool fail = false;
};

}  // namespace metropolis::matchmaker::testing
