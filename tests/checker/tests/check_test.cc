// The checker's own negative controls: a recorded history of real games (played
// here by the built-in bots, each seat's record made by the same SeatLog the bot
// kits use, fed the messages a host would send), first checked clean, then with
// one thing wrong at a time — each must be flagged by name.
#include "tests/checker/check.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "bots/bot.h"
#include "engine/event.h"
#include "engine/state.h"
#include "engine/view.h"
#include "lib/chance/chance.h"
#include "lib/protocol/convert.h"
#include "metropolis/v1/game.pb.h"
#include "metropolis/v1/gamehost.pb.h"

namespace metropolis::checker {
namespace {

struct Played {
  StoredGame game;
  std::vector<protocol::SeatRecord> records;
};

// Plays a game with heuristic bots; each seat's SeatLog gets a welcome at step 0,
// the masked events after each step (as Events messages, `batch` steps at a time,
// the way a host batches chance and bots' moves) and the game over. A seat in
// `reconnect` drops after step `drop_at` and is welcomed again at `rejoin_at`.
struct Game {
  std::string id;
  uint64_t board_seed = 0, chance_seed = 0;
  int64_t first_identity = 1, created_ms = 0;
  int drop_at = -1, rejoin_at = -1;  // seat 0 misses the events of steps (drop_at, rejoin_at]
  int resign_at = -1;                // seat 1 resigns after this step (END_REASON_RESIGNED)
};

Played Play(const Game& spec) {
  const std::string& id = spec.id;
  const uint64_t chance_seed = spec.chance_seed;
  const int drop_at = spec.drop_at, rejoin_at = spec.rejoin_at;
  GameConfig config;
  config.board = RandomBoard(spec.board_seed);
  State state(config);
  std::string error;
  EXPECT_TRUE(NewGame(config, &state, &error)) << error;
  std::string bot_error;
  std::unique_ptr<bots::Bot> bot = bots::MakeBot("heuristic", &bot_error);
  chance::ChanceStreams chance(chance_seed);
  uint64_t rng = chance_seed * 7 + 1;
  std::vector<protocol::SeatLog> logs(size_t(config.num_seats));
  std::vector<v1::Events> pending(size_t(config.num_seats));
  for (auto& log : logs) log.OnWelcome(0);
  Played p;
  p.game.id = id;
  p.game.ladder = "open";
  p.game.season = 1;
  p.game.config = config;
  std::vector<KnowledgeTracker> knowledge;
  for (int s = 0; s < config.num_seats; ++s) {
    knowledge.emplace_back(s);
    knowledge.back().Reset(state);
  }
  std::vector<Event> events;
  while (!state.IsTerminal() && state.action_count() < 4000 &&
         (spec.resign_at < 0 || int(state.action_count()) < spec.resign_at)) {
    const int player = state.CurrentPlayer();
    const Action a = state.IsChanceNode() ? chance.Sample(state)
                                          : bot->Choose(MakeView(state, player, &knowledge[size_t(player)]), &rng);
    events.clear();
    if (const std::string refused = state.Apply(a, &events); !refused.empty()) {
      ADD_FAILURE() << ActionToString(a) << ": " << refused;
      break;
    }
    for (const Event& e : events)
      for (int s = 0; s < config.num_seats; ++s) knowledge[size_t(s)].Observe(MaskEvent(e, s));
    p.game.actions.push_back(a);
    const uint32_t step = uint32_t(p.game.actions.size());
    for (int s = 0; s < config.num_seats; ++s) {
      v1::Events& batch = pending[size_t(s)];
      for (const Event& e : events) protocol::EventToProto(MaskEvent(e, s), batch.add_events());
      batch.set_step(step);
      const bool dropped = s == 0 && int(step) > drop_at && int(step) <= rejoin_at;
      if (step % 3 == 0 || state.IsTerminal()) {
        if (!dropped && batch.events_size() > 0) logs[size_t(s)].OnEvents(batch);
        batch.Clear();
      }
      if (s == 0 && int(step) == rejoin_at) logs[0].OnWelcome(step);
    }
  }
  v1::GameResult result;
  protocol::ResultToProto(state, &result);
  if (spec.resign_at >= 0) {
    result.set_reason(v1::END_REASON_RESIGNED);
    result.set_resigned_seat(1);
  }
  p.game.reason = result.reason();
  p.game.winner = result.winner();
  p.game.vp.assign(result.vp().begin(), result.vp().end());
  p.game.actions_count = result.actions();
  p.game.created_ms = spec.created_ms;
  p.game.finished_ms = spec.created_ms + 1000;
  for (int s = 0; s < config.num_seats; ++s) {
    p.game.seats.push_back({s, spec.first_identity + s});
    logs[size_t(s)].OnGameOver(result);
    p.records.push_back(logs[size_t(s)].Record(id, s));
  }
  return p;
}

// Two games of four bots each, then a third with the first game's bots; rated
// with a simple chain per identity.
class CheckerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<Played> played = {
        Play({.id = "g1", .board_seed = 11, .chance_seed = 11, .first_identity = 1}),
        Play({.id = "g2", .board_seed = 12, .chance_seed = 12, .first_identity = 5, .drop_at = 40, .rejoin_at = 60}),
        Play({.id = "g3", .board_seed = 13, .chance_seed = 13, .first_identity = 1, .created_ms = 5000})};
    for (Played& p : played) {
      for (auto& r : p.records) in.records.push_back(r);
      in.created.insert(p.game.id);
      in.games.push_back(std::move(p.game));
    }
    std::map<int64_t, double> mu;
    int64_t row = 0;
    for (const StoredGame& g : in.games) {
      in.rated.push_back({g.id, true});
      for (const StoredSeat& s : g.seats) {
        const double before = mu.count(*s.identity) ? mu[*s.identity] : 25.0;
        const double after = before + (s.seat == g.winner ? 1.5 : -0.5);
        mu[*s.identity] = after;
        in.history.push_back({++row, g.id, "open", 1, *s.identity, before, after});
      }
    }
    for (const auto& [identity, m] : mu) {
      const int games = int(std::count_if(in.history.begin(), in.history.end(),
                                          [&](const HistoryRow& h) { return h.identity == identity; }));
      in.ratings.push_back({"open", 1, identity, m, games});
    }
  }

  // The kinds flagged, each once.
  std::set<std::string> Kinds(const Expectations& expect = {}) {
    const Report report = Check(in, expect);
    std::set<std::string> kinds;
    for (const Violation& v : report.violations) kinds.insert(v.kind);
    return kinds;
  }

  Inputs in;
};

TEST_F(CheckerTest, ACleanHistoryPasses) {
  const Report report = Check(in, {.every_stored_game_recorded = true});
  for (const Violation& v : report.violations) ADD_FAILURE() << v.kind << " " << v.game << ": " << v.detail;
  EXPECT_EQ(report.games_checked, 3);
  EXPECT_EQ(report.records_checked, 12);
  EXPECT_EQ(report.rated_games, 3);
}

TEST_F(CheckerTest, ASegmentedSeatIsCheckedOverWhatItReceived) {
  // g2's seat 0 missed steps 41..60: its digest covers [0, 40] and [60, end].
  const protocol::SeatRecord& r = in.records[4];
  ASSERT_EQ(r.game_id, "g2");
  ASSERT_EQ(r.segments.size(), 2u);
  EXPECT_EQ(r.segments[1].first, 60u);
  EXPECT_TRUE(Kinds().empty());
}

TEST_F(CheckerTest, DoubleRatingIsFlagged) {
  // A second history row for one seat of g1: the game rated twice.
  HistoryRow again = in.history[0];
  again.id = 1000;
  again.mu_before = in.history[0].mu_after;
  again.mu_after = again.mu_before + 1;
  in.history.push_back(again);
  EXPECT_TRUE(Kinds().count("rated twice"));
}

TEST_F(CheckerTest, ARatingAppliedTwiceWithoutHistoryIsFlagged) {
  // The rating moved and counted a game that left no history row.
  in.ratings[0].games += 1;
  in.ratings[0].mu += 1.5;
  const auto kinds = Kinds();
  EXPECT_TRUE(kinds.count("rating counts its games wrong"));
  EXPECT_TRUE(kinds.count("rating chain broken"));
}

TEST_F(CheckerTest, AStepGoingBackwardsIsFlagged) {
  protocol::SeatRecord& r = in.records[1];
  r.backwards = 1;
  EXPECT_TRUE(Kinds().count("step went backwards"));
  r.backwards = 0;
  // A welcome behind what the seat had seen (a game resumed from an older step).
  r.segments = {{0, 100}, {90, r.segments.back().second}};
  EXPECT_TRUE(Kinds().count("step went backwards"));
}

TEST_F(CheckerTest, ADifferentWinnerIsFlagged) {
  // The stored header names another winner than the game's replay and its players saw.
  StoredGame& g = in.games[0];
  g.winner = (g.winner + 1) % 4;
  const auto kinds = Kinds();
  EXPECT_TRUE(kinds.count("stored result differs from its replay"));
  EXPECT_TRUE(kinds.count("seat saw another result"));
}

TEST_F(CheckerTest, AStoredGameOtherThanThePlayedOneIsFlagged) {
  // The seats played g1; the store holds another game under its id, on the same
  // board with other dice, whose header agrees with its own actions: what a host
  // that finished its own version of a taken-over game would store. Only the seats
  // can tell.
  in.games[0] = Play({.id = "g1", .board_seed = 11, .chance_seed = 1011, .first_identity = 1}).game;
  const auto kinds = Kinds();
  EXPECT_FALSE(kinds.count("stored result differs from its replay"));
  EXPECT_TRUE(kinds.count("events differ"));
}

TEST_F(CheckerTest, AMissingGameIsFlagged) {
  in.games.erase(in.games.begin() + 1);  // g2 finished by its seats, created, never stored
  const auto kinds = Kinds();
  EXPECT_TRUE(kinds.count("finished but not stored"));
  EXPECT_TRUE(kinds.count("created but lost"));
  EXPECT_TRUE(kinds.count("rated but not stored"));
}

TEST_F(CheckerTest, AVoidGameIsCountedNotLost) {
  in.created.insert("g4");
  in.voids["g4"] = "nobody joined";
  const Report report = Check(in);
  EXPECT_TRUE(report.violations.empty());
  EXPECT_EQ(report.voids_by_reason.at("nobody joined"), 1);
  in.created.insert("g5");  // created, neither stored nor void
  EXPECT_TRUE(Kinds().count("created but lost"));
}

// A resigned game stops where a seat resigned: its replay, which the engine
// calls aborted, agrees with the stored END_REASON_RESIGNED and with what the
// seats saw; the same game stored as aborted does not.
TEST_F(CheckerTest, AResignedGameIsCheckedClean) {
  Played resigned = Play({.id = "g2", .board_seed = 12, .chance_seed = 12, .first_identity = 5, .resign_at = 300});
  ASSERT_EQ(resigned.game.actions.size(), 300u);
  in.games[1] = resigned.game;
  std::copy(resigned.records.begin(), resigned.records.end(), in.records.begin() + 4);
  ASSERT_EQ(in.records[4].game_id, "g2");
  const Report report = Check(in);
  for (const Violation& v : report.violations) ADD_FAILURE() << v.kind << " " << v.game << ": " << v.detail;
  in.games[1].reason = v1::END_REASON_ABORTED;
  const auto kinds = Kinds();
  EXPECT_TRUE(kinds.count("seat saw another result"));
}

TEST_F(CheckerTest, AnIdentityAtTwoTablesIsFlagged) {
  // g3 (identities 1..4 again) starts while g1 still runs.
  in.games[2].created_ms = in.games[0].finished_ms - 10;
  EXPECT_TRUE(Kinds().count("identity at two tables at once"));
  in.games[2].created_ms = 5000;
  in.games[0].seats[1].identity = in.games[0].seats[0].identity;
  EXPECT_TRUE(Kinds().count("identity at two seats"));
}

TEST_F(CheckerTest, AGameNobodyFinishedIsFlaggedWhenEveryGameMustBeRecorded) {
  in.records.erase(std::remove_if(in.records.begin(), in.records.end(),
                                  [](const protocol::SeatRecord& r) { return r.game_id == "g3"; }),
                   in.records.end());
  EXPECT_TRUE(Kinds().empty());
  EXPECT_TRUE(Kinds({.every_stored_game_recorded = true}).count("stored but no player finished it"));
}

TEST_F(CheckerTest, AnUnratedGameIsFlagged) {
  in.rated.erase(in.rated.begin());
  EXPECT_TRUE(Kinds().count("not rated"));
}

TEST(SeatRecordTest, JsonRoundTripsAndRefusesBrokenLines) {
  protocol::SeatRecord r{.game_id = "g",
                         .seat = 2,
                         .segments = {{0, 5}, {7, 9}},
                         .events_sha256 = std::string(64, 'a'),
                         .last_step = 9,
                         .backwards = 0,
                         .reason = "WON",
                         .winner = 1,
                         .vp = {3, 13, 4},
                         .actions = 9};
  protocol::SeatRecord back;
  std::string error;
  ASSERT_TRUE(protocol::SeatRecordFromJson(protocol::SeatRecordToJson(r), &back, &error)) << error;
  EXPECT_EQ(back, r);
  EXPECT_FALSE(protocol::SeatRecordFromJson("{\"game\":\"g\"}", &back, &error));
  EXPECT_FALSE(protocol::SeatRecordFromJson("not json", &back, &error));
  EXPECT_EQ(back, r) << "a refused line leaves the output alone";
}

}  // namespace
}  // namespace metropolis::checker
