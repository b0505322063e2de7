// In-memory fakes of the tournaments' store (store.h) for the hermetic tests of
// the scheduler and the Tournaments service. FakeTournamentDb is the database
// every replica shares: tournaments, their games, and the leader's fence;
// FakeTournamentStore is one replica's view of it with a fence of its own, so a
// stale scheduler can be fenced off by a newer one as in PostgreSQL. They keep
// the contract the PostgreSQL store keeps — every move conditional on the state
// it leaves, a result counted only for the current attempt, each scheduler change
// fenced, reveals due as PostgreSQL groups them — on a clock the test sets
// (PostgreSQL's now()). The contract's cases (tournament_store_contract.h) hold
// it and the real store to the same behaviour.
#pragma once

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "services/matchmaker/tournaments/store.h"

namespace metropolis::matchmaker::testing {

class FakeTournamentDb {
 public:
  struct Game {
    TournamentGameRow row;  // state_age_ms is computed from since_ms
    int64_t since_ms = 0;
    bool revealed = false;
  };
  struct Tournament {
    TournamentRow row;
    uint64_t created = 0;  // creation order: PostgreSQL's created_at
    bool revealed = false;
    std::vector<Game> games;  // by number
  };
  struct State {
    std::map<std::string, Tournament> tournaments;
    int64_t fence = 0;  // tournament_leader.fence
    uint64_t created = 0;
  };

  // PostgreSQL's now(): state_age_ms, created_ms and finished_ms are on it.
  std::atomic<int64_t> clock_ms{0};
  // Every call answers UNAVAILABLE, as when PostgreSQL cannot be reached.
  std::atomic<bool> unavailable{false};

  // Runs `change` on the database's state, as a test's own SQL would.
  template <typename Change>
  void Edit(Change change) {
    std::lock_guard lock(mutex);
    change(state);
  }

  std::mutex mutex;
  State state;
};

class FakeTournamentStore final : public TournamentStore {
 public:
  explicit FakeTournamentStore(FakeTournamentDb* db) : db_(db) {}

  grpc::Status TakeFence(int64_t* fence) override {
    std::lock_guard lock(db_->mutex);
    if (db_->unavailable) return Unavailable();
    *fence = ++db_->state.fence;
    fence_.store(*fence);
    return grpc::Status::OK;
  }
  int64_t fence() const override { return fence_.load(); }
  void ClearFence() override { fence_.store(0); }

  grpc::Status Create(const TournamentSpec& spec, const std::vector<ScheduledGame>& games) override {
    std::lock_guard lock(db_->mutex);
    if (db_->unavailable) return Unavailable();
    auto [it, inserted] = db_->state.tournaments.try_emplace(spec.id);
    if (!inserted) return {grpc::StatusCode::ALREADY_EXISTS, "tournament " + spec.id + " exists already"};
    Insert(it->second, spec);
    for (const ScheduledGame& g : games) Append(it->second, g);
    return grpc::Status::OK;
  }

  grpc::Status Join(const std::string& id, int64_t identity, bool* joined) override {
    *joined = false;
    std::lock_guard lock(db_->mutex);
    if (db_->unavailable) return Unavailable();
    auto it = db_->state.tournaments.find(id);
    if (it == db_->state.tournaments.end()) return {grpc::StatusCode::NOT_FOUND, "no tournament " + id};
    TournamentRow& row = it->second.row;
    std::vector<int64_t>& entrants = row.spec.entrants;
    if (std::count(entrants.begin(), entrants.end(), identity)) return grpc::Status::OK;
    if (const std::string state = State(row); state != "registering")
      return {grpc::StatusCode::FAILED_PRECONDITION,
              "tournament " + id + " is " + state + ": registration closed at its start"};
    if (int(entrants.size()) >= row.spec.max_entrants)
      return {grpc::StatusCode::FAILED_PRECONDITION,
              "tournament " + id + " is full (" + std::to_string(row.spec.max_entrants) + " entrants)"};
    entrants.push_back(identity);
    *joined = true;
    return grpc::Status::OK;
  }

  grpc::Status Leave(const std::string& id, int64_t identity) override {
    std::lock_guard lock(db_->mutex);
    if (db_->unavailable) return Unavailable();
    auto it = db_->state.tournaments.find(id);
    if (it == db_->state.tournaments.end()) return {grpc::StatusCode::NOT_FOUND, "no tournament " + id};
    TournamentRow& row = it->second.row;
    if (const std::string state = State(row); state != "registering")
      return {grpc::StatusCode::FAILED_PRECONDITION,
              "tournament " + id + " is " + state + ": registration closed at its start"};
    std::vector<int64_t>& entrants = row.spec.entrants;
    auto at = std::find(entrants.begin(), entrants.end(), identity);
    if (at == entrants.end())
      return {grpc::StatusCode::NOT_FOUND,
              "identity " + std::to_string(identity) + " is not entered in tournament " + id};
    entrants.erase(at);
    return grpc::Status::OK;
  }

  grpc::Status DueToStart(std::vector<std::string>* ids, int64_t* now_ms) override {
    std::lock_guard lock(db_->mutex);
    if (db_->unavailable) return Unavailable();
    ids->clear();
    *now_ms = db_->clock_ms;
    std::vector<const FakeTournamentDb::Tournament*> due;
    for (const auto& [id, t] : db_->state.tournaments)
      if (t.row.state == "registering" && t.row.spec.starts_ms <= db_->clock_ms) due.push_back(&t);
    std::stable_sort(due.begin(), due.end(),
                     [](auto* a, auto* b) { return a->row.spec.starts_ms < b->row.spec.starts_ms; });
    for (const FakeTournamentDb::Tournament* t : due) ids->push_back(t->row.spec.id);
    return grpc::Status::OK;
  }

  grpc::Status Start(const std::string& id, int entrants, const std::vector<ScheduledGame>& games,
                     const std::string& reason, const TournamentSpec* next, bool* started) override {
    *started = false;
    std::lock_guard lock(db_->mutex);
    if (db_->unavailable) return Unavailable();
    if (grpc::Status f = Fenced(); !f.ok()) return f;
    auto it = db_->state.tournaments.find(id);
    if (it == db_->state.tournaments.end() || State(it->second.row) != "starting" ||
        int(it->second.row.spec.entrants.size()) != entrants)
      return grpc::Status::OK;
    FakeTournamentDb::Tournament& t = it->second;
    if (!reason.empty()) {
      t.row.state = "cancelled";
      t.row.reason = reason;
      t.row.finished_ms = db_->clock_ms;
    } else {
      t.row.state = "running";
      t.row.spec.starts_ms = db_->clock_ms;
      for (const ScheduledGame& g : games) Append(t, g);
    }
    if (next) {
      auto [at, inserted] = db_->state.tournaments.try_emplace(next->id);
      if (inserted) {
        TournamentSpec entered = *next;
        entered.entrants = t.row.spec.entrants;  // as they are under the lock, not as the scheduler read them
        Insert(at->second, entered);
      }
    }
    Commit();
    *started = true;
    return grpc::Status::OK;
  }

  grpc::Status Get(const std::string& id, TournamentRow* out) override {
    std::lock_guard lock(db_->mutex);
    if (db_->unavailable) return Unavailable();
    auto it = db_->state.tournaments.find(id);
    if (it == db_->state.tournaments.end()) return {grpc::StatusCode::NOT_FOUND, "no tournament " + id};
    *out = Row(it->second);
    return grpc::Status::OK;
  }

  grpc::Status List(std::vector<TournamentRow>* out) override {
    std::lock_guard lock(db_->mutex);
    if (db_->unavailable) return Unavailable();
    out->clear();
    for (const FakeTournamentDb::Tournament* t : ByCreation()) out->push_back(Row(*t));
    std::reverse(out->begin(), out->end());  // newest first
    if (out->size() > 1000) out->resize(1000);
    return grpc::Status::OK;
  }

  grpc::Status Games(const std::string& id, std::vector<TournamentGameRow>* out) override {
    std::lock_guard lock(db_->mutex);
    if (db_->unavailable) return Unavailable();
    out->clear();
    auto it = db_->state.tournaments.find(id);
    if (it == db_->state.tournaments.end()) return grpc::Status::OK;
    for (const FakeTournamentDb::Game& g : it->second.games) {
      out->push_back(g.row);
      out->back().state_age_ms = db_->clock_ms - g.since_ms;
    }
    return grpc::Status::OK;
  }

  grpc::Status Running(std::vector<std::string>* ids) override {
    std::lock_guard lock(db_->mutex);
    if (db_->unavailable) return Unavailable();
    ids->clear();
    for (const FakeTournamentDb::Tournament* t : ByCreation())
      if (t->row.state == "running") ids->push_back(t->row.spec.id);
    return grpc::Status::OK;
  }

  grpc::Status SetState(const std::string& id, const std::string& state, const std::string& reason) override {
    std::lock_guard lock(db_->mutex);
    if (db_->unavailable) return Unavailable();
    // Finishing is the scheduler's change; cancelling, an administrator's.
    if (grpc::Status f = Fenced(state == "finished"); !f.ok()) return f;
    auto it = db_->state.tournaments.find(id);
    if (it == db_->state.tournaments.end()) return {grpc::StatusCode::NOT_FOUND, "no tournament " + id};
    TournamentRow& row = it->second.row;
    if (row.state != "running" && !(row.state == "registering" && state == "cancelled"))
      return {grpc::StatusCode::FAILED_PRECONDITION, "tournament " + id + " is " + row.state + ", not running"};
    row.state = state;
    row.reason = reason;
    row.finished_ms = db_->clock_ms;
    Commit();
    return grpc::Status::OK;
  }

  grpc::Status Finish(const std::string& id, int number, const std::string& game_id, const std::vector<int>& places,
                      bool* finished) override {
    *finished = false;
    return Change(id, number, [&](FakeTournamentDb::Game& g) {
      // Only the attempt the schedule names now counts.
      if (g.row.game_id != game_id || (g.row.state != "starting" && g.row.state != "playing")) return;
      Move(g, "finished");
      g.row.places = places;
      *finished = true;
    });
  }

  grpc::Status Claim(const std::string& id, int number, const std::string& host, std::string* game_id,
                     bool* claimed) override {
    *claimed = false;
    return Change(id, number, [&](FakeTournamentDb::Game& g) {
      if (g.row.state != "pending") return;
      Move(g, "starting");
      ++g.row.attempts;
      g.row.host = host;
      g.row.game_id = "t-" + id + "-" + std::to_string(number) + "-" + std::to_string(g.row.attempts);
      *game_id = g.row.game_id;
      *claimed = true;
    });
  }

  grpc::Status MarkPlaying(const std::string& id, int number, const std::string& game_id, bool* marked) override {
    *marked = false;
    return Change(id, number, [&](FakeTournamentDb::Game& g) {
      if (g.row.game_id != game_id || g.row.state != "starting") return;
      Move(g, "playing");
      *marked = true;
    });
  }

  grpc::Status Requeue(const std::string& id, int number, const std::string& game_id) override {
    return Change(id, number, [&](FakeTournamentDb::Game& g) {
      if (g.row.game_id != game_id || (g.row.state != "starting" && g.row.state != "playing")) return;
      Move(g, "pending");
      g.row.game_id.clear();
      g.row.host.clear();
    });
  }

  grpc::Status VoidUnstarted(const std::string& id, int* voided) override {
    *voided = 0;
    std::lock_guard lock(db_->mutex);
    if (db_->unavailable) return Unavailable();
    if (grpc::Status f = Fenced(); !f.ok()) return f;
    auto it = db_->state.tournaments.find(id);
    if (it == db_->state.tournaments.end()) return grpc::Status::OK;
    std::set<int> begun;  // duplicate sets with a rotation that is not pending
    for (const FakeTournamentDb::Game& g : it->second.games)
      if (g.row.game.set >= 0 && g.row.state != "pending") begun.insert(g.row.game.set);
    for (FakeTournamentDb::Game& g : it->second.games) {
      if (g.row.state != "pending" || begun.count(g.row.game.set)) continue;
      Move(g, "void");
      ++*voided;
    }
    Commit();
    return grpc::Status::OK;
  }

  grpc::Status AddRound(const std::string& id, int round, const std::vector<ScheduledGame>& games) override {
    std::lock_guard lock(db_->mutex);
    if (db_->unavailable) return Unavailable();
    if (grpc::Status f = Fenced(); !f.ok()) return f;
    auto it = db_->state.tournaments.find(id);
    if (it == db_->state.tournaments.end()) return grpc::Status::OK;
    for (const FakeTournamentDb::Game& g : it->second.games)
      if (g.row.game.round == round) return grpc::Status::OK;
    for (const ScheduledGame& g : games) Append(it->second, g);
    Commit();
    return grpc::Status::OK;
  }

  grpc::Status DueReveals(int limit, std::vector<DueReveal>* out) override {
    std::lock_guard lock(db_->mutex);
    out->clear();
    if (db_->unavailable) return Unavailable();
    int wholes = 0;
    for (const FakeTournamentDb::Tournament* t : ByCreation()) {
      if (wholes == limit) break;
      if (t->row.spec.format == TournamentFormat::kDuplicate || t->revealed) continue;
      out->push_back({.tournament = t->row.spec.id, .whole = true, .set = -1, .game_ids = {}});
      ++wholes;
    }
    // Sets of the tournaments that have a finished game not yet revealed; a set
    // is due once every one of its games has finished (by tournament id, set).
    int sets = 0;
    for (const auto& [id, t] : db_->state.tournaments) {
      const bool pending_reveal = std::any_of(t.games.begin(), t.games.end(), [](const FakeTournamentDb::Game& g) {
        return g.row.state == "finished" && !g.revealed && g.row.game.set >= 0;
      });
      if (!pending_reveal) continue;
      std::map<int, std::vector<const FakeTournamentDb::Game*>> by_set;
      for (const FakeTournamentDb::Game& g : t.games)
        if (g.row.game.set >= 0) by_set[g.row.game.set].push_back(&g);
      for (const auto& [set, games] : by_set) {
        if (sets == limit) return grpc::Status::OK;
        const bool all_finished =
            std::all_of(games.begin(), games.end(), [](auto* g) { return g->row.state == "finished"; });
        const bool all_revealed = std::all_of(games.begin(), games.end(), [](auto* g) { return g->revealed; });
        if (!all_finished || all_revealed) continue;
        DueReveal due{.tournament = id, .whole = false, .set = set, .game_ids = {}};
        for (const FakeTournamentDb::Game* g : games)
          if (!g->row.game_id.empty()) due.game_ids.push_back(g->row.game_id);
        out->push_back(std::move(due));
        ++sets;
      }
    }
    return grpc::Status::OK;
  }

  grpc::Status MarkRevealed(const DueReveal& reveal) override {
    std::lock_guard lock(db_->mutex);
    if (db_->unavailable) return Unavailable();
    if (grpc::Status f = Fenced(); !f.ok()) return f;
    auto it = db_->state.tournaments.find(reveal.tournament);
    if (it != db_->state.tournaments.end()) {
      if (reveal.whole) it->second.revealed = true;
      for (FakeTournamentDb::Game& g : it->second.games)
        if (!reveal.whole && g.row.game.set == reveal.set &&
            std::count(reveal.game_ids.begin(), reveal.game_ids.end(), g.row.game_id))
          g.revealed = true;
    }
    Commit();
    return grpc::Status::OK;
  }

 private:
  // As PgTournamentStore's LockedState: a registering tournament whose start
  // has passed is "starting".
  std::string State(const TournamentRow& row) const {
    return row.state == "registering" && row.spec.starts_ms <= db_->clock_ms ? "starting" : row.state;
  }

  // As PgTournamentStore's InsertTournament: "registering" when it has a start.
  void Insert(FakeTournamentDb::Tournament& t, const TournamentSpec& spec) {
    t.row.spec = spec;
    t.row.state = spec.registration() ? "registering" : "running";
    t.row.created_ms = db_->clock_ms;
    if (!spec.registration()) t.row.spec.starts_ms = db_->clock_ms;
    t.created = ++db_->state.created;
  }

  static grpc::Status Unavailable() { return {grpc::StatusCode::UNAVAILABLE, "fake tournament store: unavailable"}; }

  // As PgTournamentStore's Fenced: whether this view may change the database,
  // with the fence it raises kept for Commit (a change that is refused later,
  // or changes nothing and commits nothing, raises nothing in PostgreSQL either).
  grpc::Status Fenced(bool required = true) {
    const int64_t mine = fence_.load();
    raise_ = 0;
    if (mine == 0) {
      if (!required) return grpc::Status::OK;
      return {grpc::StatusCode::FAILED_PRECONDITION,
              "the tournament scheduler holds no fence (it takes one as it leads)"};
    }
    if (db_->state.fence > mine) {
      fence_.store(0);
      return {grpc::StatusCode::FAILED_PRECONDITION,
              "fenced off: a newer tournament scheduler leads (this one's fence " + std::to_string(mine) + ")"};
    }
    raise_ = mine;
    return grpc::Status::OK;
  }
  void Commit() {
    if (raise_ > 0) db_->state.fence = raise_;
    raise_ = 0;
  }

  // A fenced change of one game, committed whether or not it moved the game.
  template <typename Move>
  grpc::Status Change(const std::string& id, int number, Move move) {
    std::lock_guard lock(db_->mutex);
    if (db_->unavailable) return Unavailable();
    if (grpc::Status f = Fenced(); !f.ok()) return f;
    auto it = db_->state.tournaments.find(id);
    if (it != db_->state.tournaments.end() && number >= 0 && number < int(it->second.games.size()))
      move(it->second.games[size_t(number)]);
    Commit();
    return grpc::Status::OK;
  }
  void Move(FakeTournamentDb::Game& g, const std::string& state) {
    g.row.state = state;
    g.since_ms = db_->clock_ms;
  }
  void Append(FakeTournamentDb::Tournament& t, const ScheduledGame& scheduled) {
    FakeTournamentDb::Game g;
    g.row.game = scheduled;
    g.row.number = int(t.games.size());
    g.row.state = "pending";
    g.since_ms = db_->clock_ms;
    t.games.push_back(std::move(g));
  }
  static TournamentRow Row(const FakeTournamentDb::Tournament& t) {
    TournamentRow row = t.row;
    row.names.clear();  // from the EntrantDirectory, not the store
    if (row.state == "running") row.finished_ms = 0;
    return row;
  }
  std::vector<const FakeTournamentDb::Tournament*> ByCreation() const {
    std::vector<const FakeTournamentDb::Tournament*> out;
    for (const auto& [id, t] : db_->state.tournaments) out.push_back(&t);
    std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->created < b->created; });
    return out;
  }

  FakeTournamentDb* db_;
  std::atomic<int64_t> fence_{0};
  int64_t raise_ = 0;  // under db_->mutex
};

}  // namespace metropolis::matchmaker::testing
