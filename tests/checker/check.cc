#include "tests/checker/check.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "engine/event.h"
#include "engine/game.h"
#include "engine/state.h"
#include "lib/protocol/convert.h"
#include "metropolis/v1/game.pb.h"

namespace metropolis::checker {
namespace {

// A stored game replayed once: its result, and what each seat was sent at each
// step (the canonical lines of its masked events, concatenated).
struct Replayed {
  std::string error;  // empty when the game replays
  v1::GameResult result;
  std::vector<std::vector<std::string>> lines;  // [seat][step], step 0 empty
};

Replayed Replay(const GameConfig& config, const std::vector<Action>& actions) {
  Replayed r;
  r.lines.assign(size_t(config.num_seats), std::vector<std::string>(actions.size() + 1));
  GameRecord record;
  record.config = config;
  record.actions = actions;
  auto on_step = [&](int step, const State& state, const Action*, const std::vector<Event>& events) {
    // Exactly as the host sends them: masked for the seat, then as a message.
    for (int seat = 0; step > 0 && seat < config.num_seats; ++seat) {
      std::string& out = r.lines[size_t(seat)][size_t(step)];
      for (const Event& e : events) {
        v1::Event message;
        protocol::EventToProto(MaskEvent(e, seat), &message);
        out += protocol::CanonicalEventLine(message);
      }
    }
    if (size_t(step) == actions.size()) protocol::ResultToProto(state, &r.result);
  };
  if (!ReplayGame(record, on_step, &r.error) && r.error.empty()) r.error = "the game does not replay";
  return r;
}

bool DigestOf(const Replayed& game, int seat, const std::vector<std::pair<uint32_t, uint32_t>>& segments,
              std::string* digest, std::string* error) {
  if (seat < 0 || size_t(seat) >= game.lines.size()) {
    *error = "seat " + std::to_string(seat) + " is not a seat of the game";
    return false;
  }
  const auto& steps = game.lines[size_t(seat)];
  protocol::EventDigest d;
  for (const auto& [from, to] : segments) {
    if (to >= steps.size() || from > to) {
      *error = "segment [" + std::to_string(from) + ", " + std::to_string(to) + "] is not within the game's " +
               std::to_string(steps.size() - 1) + " steps";
      return false;
    }
    for (uint32_t k = from + 1; k <= to; ++k) d.Add(steps[k]);
  }
  *digest = d.HexDigest();
  return true;
}

std::string ReasonName(int reason) {
  std::string name = v1::EndReason_Name(v1::EndReason(reason));
  constexpr std::string_view kPrefix = "END_REASON_";
  if (name.starts_with(kPrefix)) name.erase(0, kPrefix.size());
  return name.empty() ? std::to_string(reason) : name;
}

std::string Join(const std::vector<int>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

class Checker {
 public:
  Checker(const Inputs& in, const Expectations& expect) : in_(in), expect_(expect) {}

  Report Run() {
    CheckStoredGames();
    CheckRecords();
    CheckSeats();
    if (expect_.ratings) CheckRatings();
    CheckCreated();
    CheckExpectations();
    return std::move(report_);
  }

 private:
  void Flag(std::string kind, std::string game, std::string detail) {
    report_.violations.push_back({std::move(kind), std::move(game), std::move(detail)});
  }

  void CheckStoredGames() {
    for (const StoredGame& g : in_.games) {
      if (!stored_.emplace(g.id, &g).second) {
        Flag("stored twice", g.id, "two stored games have this id");
        continue;
      }
      ++report_.games_checked;
      Replayed r = Replay(g.config, g.actions);
      if (!r.error.empty()) {
        Flag("does not replay", g.id, r.error);
        continue;
      }
      std::vector<int> vp(r.result.vp().begin(), r.result.vp().end());
      // A resigned game ends where a seat resigned, before the engine's end: its
      // replay stops there, which the engine calls aborted.
      if (g.reason == v1::END_REASON_RESIGNED && r.result.reason() == v1::END_REASON_ABORTED)
        r.result.set_reason(v1::END_REASON_RESIGNED);
      if (r.result.reason() != g.reason || r.result.winner() != g.winner || vp != g.vp ||
          r.result.actions() != g.actions_count || g.actions.size() != g.actions_count) {
        Flag("stored result differs from its replay", g.id,
             "stored " + ReasonName(g.reason) + " winner " + std::to_string(g.winner) + " vp " + Join(g.vp) + " in " +
                 std::to_string(g.actions_count) + " actions; the replay of its " + std::to_string(g.actions.size()) +
                 " actions ends " + ReasonName(r.result.reason()) + " winner " + std::to_string(r.result.winner()) +
                 " vp " + Join(vp));
      }
      replayed_.emplace(g.id, std::move(r));
    }
  }

  void CheckRecords() {
    std::map<std::pair<std::string, int>, int> seen;
    for (const protocol::SeatRecord& rec : in_.records) {
      ++report_.records_checked;
      const std::string where = "seat " + std::to_string(rec.seat);
      if (++seen[{rec.game_id, rec.seat}] == 2) Flag("seat recorded twice", rec.game_id, where + " has two records");
      if (rec.backwards > 0)
        Flag("step went backwards", rec.game_id,
             where + " was sent " + std::to_string(rec.backwards) + " message(s) behind a step it had seen");
      for (size_t i = 1; i < rec.segments.size(); ++i) {
        if (rec.segments[i].first < rec.segments[i - 1].second)
          Flag("step went backwards", rec.game_id,
               where + " was welcomed at step " + std::to_string(rec.segments[i].first) + " after seeing step " +
                   std::to_string(rec.segments[i - 1].second));
      }
      const auto it = stored_.find(rec.game_id);
      if (it == stored_.end()) {
        Flag("finished but not stored", rec.game_id, where + " saw the game end " + rec.reason);
        continue;
      }
      const StoredGame& g = *it->second;
      recorded_games_.insert(g.id);
      if (rec.reason != ReasonName(g.reason) || rec.winner != g.winner || rec.vp != g.vp ||
          rec.actions != g.actions_count) {
        Flag("seat saw another result", g.id,
             where + " saw " + rec.reason + " winner " + std::to_string(rec.winner) + " vp " + Join(rec.vp) + " in " +
                 std::to_string(rec.actions) + " actions; stored: " + ReasonName(g.reason) + " winner " +
                 std::to_string(g.winner) + " vp " + Join(g.vp) + " in " + std::to_string(g.actions_count));
      }
      if (rec.last_step > g.actions_count)
        Flag("seat saw steps that are not stored", g.id,
             where + " saw step " + std::to_string(rec.last_step) + "; stored: " + std::to_string(g.actions_count));
      const auto r = replayed_.find(g.id);
      if (r == replayed_.end()) continue;  // flagged as not replaying
      std::string digest, error;
      if (!DigestOf(r->second, rec.seat, rec.segments, &digest, &error)) {
        Flag("events differ", g.id, where + ": " + error);
      } else if (digest != rec.events_sha256) {
        Flag("events differ", g.id, where + " received other events than the stored game sends it");
      }
    }
  }

  void CheckSeats() {
    // identity -> its games' [created, finished]
    std::map<int64_t, std::vector<const StoredGame*>> by_identity;
    for (const auto& [id, g] : stored_) {
      std::set<int64_t> in_game;
      for (const StoredSeat& s : g->seats) {
        if (!s.identity) continue;
        if (!in_game.insert(*s.identity).second)
          Flag("identity at two seats", id, "identity " + std::to_string(*s.identity) + " holds two seats");
        else
          by_identity[*s.identity].push_back(g);
      }
    }
    for (auto& [identity, games] : by_identity) {
      std::sort(games.begin(), games.end(),
                [](const StoredGame* a, const StoredGame* b) { return a->created_ms < b->created_ms; });
      for (size_t i = 1; i < games.size(); ++i) {
        if (expect_.one_table_at_a_time && games[i]->created_ms < games[i - 1]->finished_ms)
          Flag("identity at two tables at once", games[i]->id,
               "identity " + std::to_string(identity) + " was seated here while " + games[i - 1]->id + " still ran");
      }
    }
  }

  void CheckRatings() {
    std::map<std::string, int> decided;
    for (const RatedGame& r : in_.rated) {
      if (++decided[r.game_id] == 2) Flag("rated twice", r.game_id, "two rating decisions");
      if (!stored_.count(r.game_id)) Flag("rated but not stored", r.game_id, "");
      if (r.rated) rated_.insert(r.game_id);
    }
    report_.rated_games = int(rated_.size());
    for (const auto& [id, g] : stored_) {
      if (!decided.count(id)) Flag("not rated", id, "ratings never decided on this stored game");
    }
    std::map<std::string, std::map<int64_t, int>> history_by_game;
    std::map<std::tuple<std::string, int, int64_t>, std::vector<const HistoryRow*>> chains;
    for (const HistoryRow& h : in_.history) {
      if (++history_by_game[h.game_id][h.identity] == 2)
        Flag("rated twice", h.game_id, "identity " + std::to_string(h.identity) + " has two history rows");
      if (!rated_.count(h.game_id)) Flag("history of an unrated game", h.game_id, "");
      chains[{h.ladder, h.season, h.identity}].push_back(&h);
    }
    for (const std::string& id : rated_) {
      const auto it = stored_.find(id);
      if (it == stored_.end()) continue;
      std::set<int64_t> seats;
      for (const StoredSeat& s : it->second->seats)
        if (s.identity) seats.insert(*s.identity);
      std::set<int64_t> rows;
      for (const auto& [identity, n] : history_by_game[id]) rows.insert(identity);
      if (rows != seats)
        Flag("rated seats differ from history", id,
             std::to_string(seats.size()) + " identity seats, history rows for " + std::to_string(rows.size()));
    }
    std::map<std::tuple<std::string, int, int64_t>, const RatingRow*> ratings;
    for (const RatingRow& r : in_.ratings) ratings[{r.ladder, r.season, r.identity}] = &r;
    for (auto& [key, rows] : chains) {
      std::sort(rows.begin(), rows.end(), [](const HistoryRow* a, const HistoryRow* b) { return a->id < b->id; });
      const std::string who = "identity " + std::to_string(std::get<2>(key)) + " on " + std::get<0>(key) + " season " +
                              std::to_string(std::get<1>(key));
      for (size_t i = 1; i < rows.size(); ++i) {
        if (std::abs(rows[i]->mu_before - rows[i - 1]->mu_after) > 1e-9)
          Flag("rating chain broken", rows[i]->game_id,
               who + ": mu before this game is not mu after " + rows[i - 1]->game_id +
                   " (a game applied twice or lost)");
      }
      const auto r = ratings.find(key);
      if (r == ratings.end()) {
        Flag("history without a rating", rows.back()->game_id, who);
        continue;
      }
      if (r->second->games != int(rows.size()))
        Flag(
            "rating counts its games wrong", rows.back()->game_id,
            who + " counts " + std::to_string(r->second->games) + " games, history has " + std::to_string(rows.size()));
      if (std::abs(r->second->mu - rows.back()->mu_after) > 1e-9)
        Flag("rating chain broken", rows.back()->game_id, who + ": the rating is not the last history row's");
    }
    for (const auto& [key, r] : ratings) {
      if (!chains.count(key) && r->games != 0)
        Flag("rating counts its games wrong", "",
             "identity " + std::to_string(r->identity) + " counts " + std::to_string(r->games) + " games, no history");
    }
  }

  void CheckCreated() {
    for (const auto& [id, reason] : in_.voids) {
      ++report_.voids_by_reason[reason];
      if (stored_.count(id)) Flag("void but stored", id, "void (" + reason + ") yet stored");
    }
    report_.created_games = int(in_.created.size());
    if (in_.created.empty()) {
      report_.notes.push_back("no host log given: created games not compared with stored ones");
      return;
    }
    for (const std::string& id : in_.created) {
      if (!stored_.count(id) && !in_.voids.count(id)) Flag("created but lost", id, "neither stored nor void");
    }
    for (const auto& [id, g] : stored_) {
      if (!in_.created.count(id)) Flag("stored but never created", id, "no host logged its creation");
    }
  }

  void CheckExpectations() {
    if (expect_.every_stored_game_recorded) {
      for (const auto& [id, g] : stored_) {
        if (!recorded_games_.count(id)) Flag("stored but no player finished it", id, "");
      }
    }
    if (expect_.games_per_record_file > 0) {
      for (const auto& [file, n] : in_.records_per_file) {
        if (n != expect_.games_per_record_file)
          Flag("a bot finished another number of games", "",
               file + ": " + std::to_string(n) + " games, expected " + std::to_string(expect_.games_per_record_file));
      }
    }
    if (expect_.min_games > 0 && report_.games_checked < expect_.min_games)
      Flag("too few games", "",
           std::to_string(report_.games_checked) + " games stored, expected at least " +
               std::to_string(expect_.min_games));
  }

  const Inputs& in_;
  const Expectations& expect_;
  Report report_;
  std::map<std::string, const StoredGame*> stored_;
  std::map<std::string, Replayed> replayed_;
  std::set<std::string> rated_;
  std::set<std::string> recorded_games_;
};

}  // namespace

Report Check(const Inputs& inputs, const Expectations& expect) { return Checker(inputs, expect).Run(); }

bool SeatDigest(const GameConfig& config, const std::vector<Action>& actions, int seat,
                const std::vector<std::pair<uint32_t, uint32_t>>& segments, std::string* digest, std::string* error) {
  const Replayed r = Replay(config, actions);
  if (!r.error.empty()) {
    *error = r.error;
    return false;
  }
  return DigestOf(r, seat, segments, digest, error);
}

}  // namespace metropolis::checker
