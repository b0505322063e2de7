// ReplayStore in memory, for tests of the replays logic without PostgreSQL.
// It keeps what PgReplayStore's tables would hold and answers as they do
// (insert once, keyset pages newest or oldest first, seats by seat); `unavailable`
// makes every call UNAVAILABLE, as a database that cannot be reached.
// Not modelled: seats' identities as foreign keys (any identity_id is taken).
#pragma once

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "services/replays/replay_store.h"

namespace metropolis::replays::testing {

class FakeReplayStore final : public ReplayStore {
 public:
  grpc::Status Insert(const PreparedGame& game, bool* already_stored, std::string* stored_digest) override {
    if (unavailable) return Down();
    const v1::CompletedGameRecord& record = *game.record;
    std::lock_guard lock(mutex_);
    if (auto it = games_.find(record.game_id()); it != games_.end()) {
      if (it->second.codes != game.codes)
        return {grpc::StatusCode::ALREADY_EXISTS, "game " + record.game_id() + " is stored with other actions"};
      *already_stored = true;
      *stored_digest = it->second.digest;
      return grpc::Status::OK;
    }
    Stored& stored = games_[record.game_id()];
    stored.record = record;  // as the columns hold it: seats by seat, no winner -1
    auto* seats = stored.record.mutable_seats();
    std::sort(seats->begin(), seats->end(), [](const auto& a, const auto& b) { return a.seat() < b.seat(); });
    v1::GameResult* result = stored.record.mutable_result();
    if (result->winner() < 0) result->set_winner(-1);
    result->set_actions(uint32_t(record.actions_size()));
    result->set_turns(game.turns);
    stored.codes = game.codes;
    stored.digest = game.digest;
    stored.debug.assign(record.debug().begin(), record.debug().end());
    std::sort(stored.debug.begin(), stored.debug.end(),
              [](const auto& a, const auto& b) { return a.seat() < b.seat(); });
    stored.record.clear_debug();  // kept apart, as in PostgreSQL
    *already_stored = false;
    *stored_digest = game.digest;
    return grpc::Status::OK;
  }

  grpc::Status Load(const std::string& game_id, v1::CompletedGameRecord* out) override {
    if (unavailable) return Down();
    std::lock_guard lock(mutex_);
    auto it = games_.find(game_id);
    if (it == games_.end()) return {grpc::StatusCode::NOT_FOUND, "no stored game " + game_id};
    *out = it->second.record;
    return grpc::Status::OK;
  }

  grpc::Status LoadDebug(const std::string& game_id, std::vector<v1::SeatDebug>* out) override {
    if (unavailable) return Down();
    std::lock_guard lock(mutex_);
    out->clear();
    if (auto it = games_.find(game_id); it != games_.end()) *out = it->second.debug;
    return grpc::Status::OK;
  }

  grpc::Status ListPage(const ListFilter& filter, const ListCursor& after, int limit, Summaries* out) override {
    if (unavailable) return Down();
    std::lock_guard lock(mutex_);
    std::vector<const v1::CompletedGameRecord*> page;
    for (const auto& [id, stored] : games_) {
      const v1::CompletedGameRecord& g = stored.record;
      const auto key = std::make_pair(g.finished_unix_ms(), id);
      const auto cursor = std::make_pair(after.finished_unix_ms, after.game_id);
      if (Matches(filter, g) && (!after.set || (filter.oldest_first ? cursor < key : key < cursor))) page.push_back(&g);
    }
    std::sort(page.begin(), page.end(), [&](const auto* a, const auto* b) {
      const auto ka = std::make_pair(a->finished_unix_ms(), a->game_id());
      const auto kb = std::make_pair(b->finished_unix_ms(), b->game_id());
      return filter.oldest_first ? ka < kb : ka > kb;
    });
    if (page.size() > size_t(limit)) page.resize(size_t(limit));
    for (const auto* g : page) *out->Add() = SummaryOf(*g, /*outcome=*/false);
    return grpc::Status::OK;
  }

  grpc::Status Digest(const std::string& game_id, std::string* digest, bool* found) override {
    if (unavailable) return Down();
    std::lock_guard lock(mutex_);
    auto it = games_.find(game_id);
    *found = it != games_.end();
    if (*found) *digest = it->second.digest;
    return grpc::Status::OK;
  }

  grpc::Status Results(const std::vector<std::string>& ids, Summaries* out) override {
    if (unavailable) return Down();
    std::lock_guard lock(mutex_);
    for (const std::string& id : std::set<std::string>(ids.begin(), ids.end()))
      if (auto it = games_.find(id); it != games_.end()) *out->Add() = SummaryOf(it->second.record, /*outcome=*/true);
    return grpc::Status::OK;
  }

  grpc::Status GamesWithoutTurns(const std::string& after, int limit, std::vector<std::string>* out) override {
    if (unavailable) return Down();
    std::lock_guard lock(mutex_);
    for (auto it = games_.upper_bound(after); it != games_.end() && int(out->size()) < limit; ++it)
      if (!it->second.turns_known) out->push_back(it->first);
    return grpc::Status::OK;
  }
  grpc::Status SetTurns(const std::string& game_id, uint32_t turns) override {
    if (unavailable) return Down();
    std::lock_guard lock(mutex_);
    if (auto it = games_.find(game_id); it != games_.end() && !it->second.turns_known) {
      it->second.record.mutable_result()->set_turns(turns);
      it->second.turns_known = true;
    }
    return grpc::Status::OK;
  }
  // As a game stored before migration 0095: its turns unknown (read as 0).
  void ForgetTurns(const std::string& game_id) {
    std::lock_guard lock(mutex_);
    Stored& stored = games_.at(game_id);
    stored.record.mutable_result()->set_turns(0);
    stored.turns_known = false;
  }

  // A stored game whose last `n` actions are lost: it no longer replays.
  void DropLastActions(const std::string& game_id, int n) {
    std::lock_guard lock(mutex_);
    auto* actions = games_.at(game_id).record.mutable_actions();
    actions->Truncate(actions->size() - n);
  }

  // How many games are stored.
  size_t size() {
    std::lock_guard lock(mutex_);
    return games_.size();
  }

  std::atomic<bool> unavailable{false};

 private:
  struct Stored {
    v1::CompletedGameRecord record;
    std::string codes, digest;
    std::vector<v1::SeatDebug> debug;  // by seat
    bool turns_known = true;
  };

  static grpc::Status Down() { return {grpc::StatusCode::UNAVAILABLE, "database unavailable: the fake is down"}; }

  static bool Matches(const ListFilter& f, const v1::CompletedGameRecord& g) {
    const bool seated = std::any_of(g.seats().begin(), g.seats().end(),
                                    [&](const v1::SeatRecord& s) { return s.identity_id() == f.identity_id; });
    return (f.identity_id == 0 || seated) && (f.ladder.empty() || g.ladder() == f.ladder) &&
           (f.season == 0 || g.season() == f.season) && (f.tournament.empty() || g.tournament() == f.tournament) &&
           (f.finished_after_unix_ms == 0 || g.finished_unix_ms() >= f.finished_after_unix_ms) &&
           (f.finished_before_unix_ms == 0 || g.finished_unix_ms() < f.finished_before_unix_ms);
  }

  static v1::StoredGameSummary SummaryOf(const v1::CompletedGameRecord& g, bool outcome) {
    v1::StoredGameSummary s;
    s.set_game_id(g.game_id());
    s.set_ladder(g.ladder());
    s.set_season(g.season());
    s.set_tournament(g.tournament());
    s.mutable_result()->set_reason(g.result().reason());
    s.mutable_result()->set_winner(g.result().winner());
    s.mutable_result()->set_actions(g.result().actions());
    s.mutable_result()->set_turns(g.result().turns());
    if (g.result().has_resigned_seat()) s.mutable_result()->set_resigned_seat(g.result().resigned_seat());
    *s.mutable_result()->mutable_vp() = g.result().vp();
    s.set_finished_unix_ms(g.finished_unix_ms());
    for (const v1::SeatRecord& seat : g.seats()) {
      v1::SeatRecord* out = s.add_seats();
      out->set_seat(seat.seat());
      out->set_identity_id(seat.identity_id());
      out->set_name(seat.name());
      if (outcome) {
        out->set_fallback_decisions(seat.fallback_decisions());
        out->set_forfeited(seat.forfeited());
      }
    }
    return s;
  }

  std::mutex mutex_;
  std::map<std::string, Stored> games_;
};

}  // namespace metropolis::replays::testing
