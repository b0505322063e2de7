// Small fakes of the ratings service's peers (peers.h) for its tests — a
// Replays that confirms the digests it was given, and an Accounts with the
// ladders and names it was given, either of which can be made unreachable —
// and the results the tests rate, as a game host sends them.
#pragma once

#include <atomic>
#include <map>
#include <mutex>

#include "engine/hex.h"
#include "metropolis/v1/ratings.pb.h"
#include "services/ratings/peers.h"

namespace metropolis::ratings::testing {

// A digest for a game id: 64 hex digits, the id's bytes first; `last` varies it.
inline std::string DigestOf(const std::string& id, char last = '0') {
  std::string out = HexOf(id);
  out.resize(63, '0');
  return out + last;
}

// The result of a game as the host sends it; identity 0 is a seat without an
// identity (a built-in bot).
inline v1::RateGameRequest Result(const std::string& id, const std::string& ladder, int season, int winner,
                                  const std::vector<int>& vp, const std::vector<int64_t>& identities,
                                  const std::vector<bool>& forfeited = {}) {
  v1::RateGameRequest r;
  r.set_game_id(id);
  r.set_digest(DigestOf(id));
  v1::GameOutcome* o = r.mutable_outcome();
  o->set_ladder(ladder);
  o->set_season(uint32_t(season));
  o->mutable_result()->set_winner(winner);
  o->mutable_result()->set_reason(winner >= 0 ? v1::END_REASON_WON : v1::END_REASON_LENGTH_CAP);
  for (int v : vp) o->mutable_result()->add_vp(uint32_t(v));
  for (size_t s = 0; s < identities.size(); ++s) {
    v1::OutcomeSeat* seat = o->add_seats();
    seat->set_identity_id(identities[s]);
    seat->set_forfeited(!forfeited.empty() && forfeited[s]);
  }
  return r;
}

class FakeStoredGames final : public StoredGames {
 public:
  void Store(const std::string& game_id, const std::string& digest) {
    std::lock_guard lock(mutex_);
    digests_[game_id] = digest;
  }
  std::atomic<bool> unavailable{false};
  std::atomic<int> calls{0};

  grpc::Status Confirm(const std::string& game_id, const std::string& digest, bool* confirmed) override {
    ++calls;
    if (unavailable) return {grpc::StatusCode::UNAVAILABLE, "replays is down"};
    std::lock_guard lock(mutex_);
    auto it = digests_.find(game_id);
    if (it == digests_.end()) return {grpc::StatusCode::NOT_FOUND, "no stored game " + game_id};
    *confirmed = it->second == digest;
    return grpc::Status::OK;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::string> digests_;
};

class FakeLadders final : public LadderDirectory {
 public:
  void AddLadder(const std::string& id, const LadderInfo& info) {
    std::lock_guard lock(mutex_);
    ladders_[id] = info;
  }
  void RemoveLadder(const std::string& id) {
    std::lock_guard lock(mutex_);
    ladders_.erase(id);
  }
  void AddName(int64_t id, const std::string& name) {
    std::lock_guard lock(mutex_);
    names_[id] = name;
  }
  std::atomic<bool> unavailable{false};
  std::atomic<int> name_calls{0};

  grpc::Status Ladder(const std::string& ladder, LadderInfo* out) override {
    if (unavailable) return {grpc::StatusCode::UNAVAILABLE, "accounts is down"};
    std::lock_guard lock(mutex_);
    auto it = ladders_.find(ladder);
    if (it == ladders_.end()) return {grpc::StatusCode::NOT_FOUND, "ladder '" + ladder + "' does not exist"};
    *out = it->second;
    return grpc::Status::OK;
  }
  grpc::Status Names(const std::vector<int64_t>& ids, std::unordered_map<int64_t, std::string>* out) override {
    ++name_calls;
    if (unavailable) return {grpc::StatusCode::UNAVAILABLE, "accounts is down"};
    std::lock_guard lock(mutex_);
    for (int64_t id : ids)
      if (auto it = names_.find(id); it != names_.end()) (*out)[id] = it->second;
    return grpc::Status::OK;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, LadderInfo> ladders_;
  std::map<int64_t, std::string> names_;
};

}  // namespace metropolis::ratings::testing
