// The game host's logic on a fake clock: whole games, every way an answer can
// be wrong, deadlines and fallbacks, reconnection, spectators, and the
// completed-game hand-off. No gRPC here (see grpc_test.cc).
#include "engine/game.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>

#include "lib/protocol/convert.h"
#include "services/gamehost/results.h"
#include "services/gamehost/tests/fakes.h"

namespace metropolis::gamehost::testing {
namespace {

using Msg = v1::PlayUpdate::MsgCase;

v1::CreateGameRequest FourPlayers(uint64_t seed) {
  v1::CreateGameRequest request;
  for (int i = 0; i < 4; ++i) request.add_seats()->set_name("p" + std::to_string(i));
  request.set_chance_seed(seed);
  return request;
}

struct Table {
  explicit Table(TestHost* t, uint64_t seed = 7) : Table(t, FourPlayers(seed)) {}
  Table(TestHost* t, const v1::CreateGameRequest& request) : test(t) {
    grpc::Status s = test->host->CreateGame(kAdmin, request, &created);
    EXPECT_TRUE(s.ok()) << s.error_message();
    for (int i = 0; i < 4; ++i) seats.push_back(std::make_shared<RecordingSeat>());
  }
  std::shared_ptr<Game> Find(int seat, grpc::Status* status = nullptr) {
    Host::Target target;
    grpc::Status s = test->host->FindSeat(created.seat_tokens(seat), created.game_id(), &target);
    if (status) *status = s;
    EXPECT_EQ(target.seat, s.ok() ? seat : -1);
    return target.game;
  }
  grpc::Status Connect(int seat, bool take_over = false) {
    v1::PlayHello hello;
    hello.set_game_id(created.game_id());
    hello.set_take_over(take_over);
    if (take_over) seats[seat] = std::make_shared<RecordingSeat>();
    return Find(seat)->Connect(seat, hello, seats[seat]);
  }
  void ConnectAll() {
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(Connect(i).ok());
  }
  // The seat whose decision is pending, or -1.
  int Actor() const {
    for (int i = 0; i < 4; ++i) {
      const v1::Decision* d = seats[i]->PendingDecision();
      if (d && !seats[i]->finished) {
        // Only the latest decision of the whole table is live.
        bool newest = true;
        for (int j = 0; j < 4; ++j) {
          const v1::Decision* o = seats[j]->PendingDecision();
          if (j != i && o && o->step() > d->step()) newest = false;
        }
        if (newest) return i;
      }
    }
    return -1;
  }
  void Answer(int seat, uint32_t step, uint64_t code) {
    v1::PlayAnswer answer;
    answer.set_step(step);
    answer.mutable_action()->set_code(code);
    Find(seat)->Answer(seat, seats[seat].get(), answer, test->clock.Now());
  }
  // Plays random legal actions until the game is over (or `stop` says so).
  int PlayOut(uint64_t rng = 1, const std::function<bool()>& stop = {}) {
    int answers = 0;
    for (;;) {
      test->Settle();
      if (stop && stop()) break;
      const int actor = Actor();
      if (actor < 0) break;
      const v1::Decision& d = *seats[actor]->PendingDecision();
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      Answer(actor, d.step(), d.view().legal(int((rng >> 33) % uint64_t(d.view().legal_size()))));
      ++answers;
    }
    return answers;
  }

  TestHost* test;
  v1::CreateGameResponse created;
  std::vector<std::shared_ptr<RecordingSeat>> seats;
};

TEST(GameHost, CreateGameChecksTokenAndRequest) {
  TestHost t;
  v1::CreateGameRequest request;
  for (int i = 0; i < 4; ++i) request.add_seats()->set_name("p");
  v1::CreateGameResponse response;
  EXPECT_EQ(t.host->CreateGame("", request, &response).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(t.host->CreateGame("nope", request, &response).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(t.host->CreateGame(kSpectator, request, &response).error_code(), grpc::StatusCode::PERMISSION_DENIED);

  v1::CreateGameRequest two = request;
  two.mutable_seats()->DeleteSubrange(0, 2);
  grpc::Status s = t.host->CreateGame(kAdmin, two, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "seats: 2 given, a game has 3 or 4");

  v1::CreateGameRequest bad_bot = request;
  bad_bot.mutable_seats(1)->set_fallback_bot("telepath");
  s = t.host->CreateGame(kAdmin, bad_bot, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("seats[1].fallback_bot"), std::string::npos) << s.error_message();

  v1::CreateGameRequest bad_config = request;
  bad_config.mutable_config()->mutable_options()->set_saboteur(9);
  s = t.host->CreateGame(kAdmin, bad_config, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message().rfind("config: ", 0), 0u) << s.error_message();

  v1::CreateGameRequest bad_id = request;
  bad_id.set_game_id("no spaces please");
  EXPECT_EQ(t.host->CreateGame(kAdmin, bad_id, &response).error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  request.set_game_id("table-1");
  ASSERT_TRUE(t.host->CreateGame(kAdmin, request, &response).ok());
  EXPECT_EQ(response.game_id(), "table-1");
  EXPECT_EQ(response.host(), "host-a:1");
  ASSERT_EQ(response.seat_tokens_size(), 4);
  EXPECT_EQ(response.seat_tokens(0).size(), 32u);  // 128 random bits
  EXPECT_NE(response.seat_tokens(0), response.seat_tokens(1));
  EXPECT_EQ(t.host->CreateGame(kAdmin, request, &response).error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(t.host->live_games(), 1u);
}

TEST(GameHost, WholeGameIsPlayedStoredAndReplays) {
  TestHost t;
  Table table(&t);
  table.ConnectAll();
  const int answers = table.PlayOut();
  EXPECT_GT(answers, 100);
  ASSERT_EQ(t.sink.games.size(), 1u);
  const CompletedGame& done = t.sink.games[0];
  EXPECT_EQ(done.game_id, table.created.game_id());
  EXPECT_EQ(done.fallback_decisions, std::vector<uint32_t>(4, 0));
  // The stored record replays to the same end.
  int replayed_winner = -2;
  std::string error;
  ASSERT_TRUE(ReplayGame(
      done.record,
      [&](int, const State& s, const Action*, const std::vector<Event>&) {
        if (s.IsTerminal()) replayed_winner = s.Winner();
      },
      &error))
      << error;
  EXPECT_EQ(replayed_winner, done.record.winner.value_or(-3));
  for (auto& seat : table.seats) {
    // A decision always follows the events that led to it (gamehost.proto).
    int64_t events_step = 0;
    for (const auto& u : seat->updates) {
      if (u->has_events()) events_step = u->events().step();
      if (u->has_decision()) {
        ASSERT_EQ(int64_t(u->decision().step()), events_step);
      }
    }
    EXPECT_TRUE(seat->finished);
    EXPECT_TRUE(seat->status.ok());
    ASSERT_NE(seat->Last(Msg::kGameOver), nullptr);
    EXPECT_EQ(seat->Last(Msg::kGameOver)->game_over().result().winner(), done.record.winner.value_or(-1));
  }
  v1::GameInfo info;
  ASSERT_TRUE(t.host->GetGame(kSpectator, table.created.game_id(), &info).ok());
  EXPECT_EQ(info.status(), v1::GAME_STATUS_FINISHED);
  uint32_t decisions = 0;
  for (const auto& p : info.players()) decisions += p.decisions();
  EXPECT_EQ(int(decisions), answers);
  EXPECT_EQ(t.host->live_games(), 0u);
}

// What a seat heard, event by event: the texts of every Events message in order.
std::vector<std::string> HeardEvents(const RecordingSeat& seat, int* messages) {
  std::vector<std::string> heard;
  *messages = 0;
  for (const auto& u : seat.updates) {
    if (!u->has_events()) continue;
    ++*messages;
    for (const auto& e : u->events().events()) heard.push_back(e.SerializeAsString());
  }
  return heard;
}

// GameEnv::coalesce_events_ms: a seat that is not to act hears the steps played
// meanwhile in one message, at its next decision, and loses none of them.
TEST(GameHost, EventsForSeatsNotToActWaitForTheirDecisionAndNoneIsLost) {
  TestHost at_once;
  TestHost coalescing("host-a:1", nullptr, true, false, {}, /*coalesce_events_ms=*/20);
  Table plain(&at_once, 11), merged(&coalescing, 11);
  plain.ConnectAll();
  merged.ConnectAll();
  // The clock does not move, so the coalescing timer never fires: only
  // decisions and the end release what waits.
  const int answers = plain.PlayOut(5);
  ASSERT_EQ(merged.PlayOut(5), answers);
  int plain_total = 0, merged_total = 0;
  for (int i = 0; i < 4; ++i) {
    int plain_messages = 0, merged_messages = 0;
    const auto expected = HeardEvents(*plain.seats[i], &plain_messages);
    const auto heard = HeardEvents(*merged.seats[i], &merged_messages);
    EXPECT_EQ(heard.size(), expected.size()) << "seat " << i;
    EXPECT_TRUE(heard == expected) << "seat " << i << " heard other events, or in another order";
    plain_total += plain_messages;
    merged_total += merged_messages;
    // The seat to act still hears every event before its decision.
    int64_t events_step = 0;
    for (const auto& u : merged.seats[i]->updates) {
      if (u->has_events()) events_step = u->events().step();
      if (u->has_decision()) {
        ASSERT_EQ(int64_t(u->decision().step()), events_step);
      }
    }
    ASSERT_NE(merged.seats[i]->Last(Msg::kGameOver), nullptr);
  }
  // Four seats heard every step; coalesced, about one message per decision.
  EXPECT_LT(merged_total * 2, plain_total) << plain_total << " messages at once, " << merged_total << " coalesced";
  EXPECT_LE(merged_total, answers + 8);
}

// The timer releases what waits for a seat that is not to act, no later than
// coalesce_events_ms after it was released, and brings it to the game's step.
TEST(GameHost, CoalescedEventsGoOutWhenTheTimerFires) {
  TestHost t("host-a:1", nullptr, true, false, {}, /*coalesce_events_ms=*/20);
  Table table(&t, 3);
  table.ConnectAll();
  t.Settle();
  // Play until some seat not to act has events waiting (the first setup step
  // tells every seat what was placed).
  table.PlayOut(9, [&, n = 0]() mutable { return ++n > 3; });
  const int actor = table.Actor();
  ASSERT_GE(actor, 0);
  const int other = (actor + 1) % 4;
  auto events_heard = [&](int seat) {
    int n = 0;
    for (const auto& u : table.seats[seat]->updates) n += u->has_events() ? 1 : 0;
    return n;
  };
  const int before = events_heard(other);
  const uint32_t step = table.seats[actor]->PendingDecision()->step();
  t.timers.AdvanceTo(t.clock.Now() + 19);
  t.Settle();
  EXPECT_EQ(events_heard(other), before) << "released before the coalescing window ended";
  t.timers.AdvanceTo(t.clock.Now() + 1);
  t.Settle();
  ASSERT_EQ(events_heard(other), before + 1);
  const v1::PlayUpdate* last = table.seats[other]->Last(Msg::kEvents);
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(last->events().step(), step);
}

// A seat that answers twice (a retry) is refused, and the events that made the
// second answer stale reach it first: a bot that retries on a refusal reads
// them to learn the decision is gone.
TEST(GameHost, ARefusedAnswerComesAfterTheEventsHeldForTheSeat) {
  TestHost t("host-a:1", nullptr, true, false, {}, /*coalesce_events_ms=*/20);
  Table table(&t, 5);
  table.ConnectAll();
  t.Settle();
  // Seat 0 places its settlement and its road at once; then seat 1 is to act
  // and seat 0's events of the road's step wait (the clock has not moved).
  for (int i = 0; i < 2; ++i) {
    const v1::Decision d = *table.seats[0]->PendingDecision();
    table.Answer(0, d.step(), d.view().legal(0));
    t.Settle();
  }
  ASSERT_EQ(table.Actor(), 1);
  const v1::Decision road = *table.seats[0]->PendingDecision();
  const size_t before = table.seats[0]->updates.size();
  table.Answer(0, road.step(), road.view().legal(0));  // the retry
  t.Settle();
  const auto& updates = table.seats[0]->updates;
  ASSERT_EQ(updates.size(), before + 2) << "the held events, then the refusal";
  ASSERT_TRUE(updates[before]->has_events());
  EXPECT_GT(updates[before]->events().step(), road.step());
  ASSERT_TRUE(updates[before + 1]->has_rejected());
  EXPECT_NE(updates[before + 1]->rejected().error().find("not your decision"), std::string::npos);
}

// The last step's events are never held: every seat hears the whole game
// before it hears the end, even while the finished game waits to be kept.
TEST(GameHost, EverySeatHearsTheLastStepBeforeTheGameIsStored) {
  TestHost at_once;
  TestHost coalescing("host-a:1", nullptr, true, false, {}, /*coalesce_events_ms=*/20);
  at_once.sink.Hold(true);
  coalescing.sink.Hold(true);
  Table plain(&at_once, 13), merged(&coalescing, 13);
  plain.ConnectAll();
  merged.ConnectAll();
  // The seats never hear the end (it waits to be kept), so the play-out stops
  // at the first answer refused because the game is over.
  auto refused = [](Table* table) {
    return [table] {
      for (const auto& seat : table->seats)
        if (seat->Last(Msg::kRejected)) return true;
      return false;
    };
  };
  ASSERT_EQ(merged.PlayOut(3, refused(&merged)), plain.PlayOut(3, refused(&plain)));
  for (int i = 0; i < 4; ++i) {
    const v1::PlayUpdate* r = merged.seats[i]->Last(Msg::kRejected);
    if (r) {
      EXPECT_NE(r->rejected().error().find("game is over"), std::string::npos) << r->rejected().error();
    }
  }
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(merged.seats[i]->Last(Msg::kGameOver), nullptr) << "the game is not stored yet";
    const v1::PlayUpdate* expected = plain.seats[i]->Last(Msg::kEvents);
    const v1::PlayUpdate* heard = merged.seats[i]->Last(Msg::kEvents);
    ASSERT_NE(expected, nullptr);
    ASSERT_NE(heard, nullptr);
    EXPECT_EQ(heard->events().step(), expected->events().step()) << "seat " << i;
  }
  at_once.sink.Hold(false);
  coalescing.sink.Hold(false);
}

// Steps that come slower than the window are not held: a game of bots that
// think sends each step's events at once, as without coalescing.
TEST(GameHost, EventsAreNotHeldWhenStepsComeSlowerThanTheWindow) {
  TestHost t("host-a:1", nullptr, true, false, {}, /*coalesce_events_ms=*/20);
  Table table(&t, 17);
  table.ConnectAll();
  int checked = 0, late = 0;
  table.PlayOut(7, [&] {
    // Before the clock moves: every seat has heard the step the game is at.
    uint32_t newest = 0;
    for (const auto& seat : table.seats)
      if (const v1::PlayUpdate* e = seat->Last(Msg::kEvents)) newest = std::max(newest, e->events().step());
    for (const auto& seat : table.seats) {
      const v1::PlayUpdate* e = seat->Last(Msg::kEvents);
      if (!e) continue;  // before the first step
      ++checked;
      if (e->events().step() < newest) ++late;
    }
    t.timers.AdvanceTo(t.clock.Now() + 25);  // the next answer comes 25 ms later
    return false;
  });
  EXPECT_GT(checked, 400);
  EXPECT_EQ(late, 0) << "seats heard a step only after the coalescing window";
}

TEST(GameHost, GameWaitsForEverySeatThenStartsAnywayAfterTheTimeout) {
  TestHost t;
  Table table(&t);
  ASSERT_TRUE(table.Connect(0).ok());
  ASSERT_TRUE(table.Connect(1).ok());
  t.Settle();
  EXPECT_EQ(table.Actor(), -1) << "no decision before the table is complete";
  t.timers.AdvanceTo(5000);  // the start timeout: seats 2 and 3 are played by bots
  t.Settle();
  EXPECT_EQ(table.Actor(), 0) << "seat 0 sets up first";
}

TEST(GameHost, AGameNoneOfWhosePlayersJoinedIsVoidAtTheStartTimeout) {
  // Its seats were never handed out (a matchmaker died after creating it):
  // played by fallback bots it would be rated in the players' names.
  TestHost t;
  Table table(&t);
  Table other(&t, 8);
  ASSERT_TRUE(other.Connect(0).ok());  // one player came: that game is played
  t.Settle();
  ASSERT_EQ(t.host->live_games(), 2u);
  t.timers.AdvanceTo(5000);
  t.Settle();
  EXPECT_EQ(t.host->live_games(), 1u);
  grpc::Status status;
  EXPECT_EQ(table.Find(0, &status), nullptr);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND) << status.error_message();
  v1::GameInfo info;
  EXPECT_EQ(t.host->GetGame(kSpectator, table.created.game_id(), &info).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(other.Actor(), 0) << "the game one player joined starts";
  std::lock_guard lock(t.sink.mutex);
  for (const auto& g : t.sink.games) EXPECT_NE(g.game_id, table.created.game_id());
}

TEST(GameHost, WrongAnswersAreRejectedAndChangeNothing) {
  TestHost t;
  Table table(&t);
  table.ConnectAll();
  t.Settle();
  ASSERT_EQ(table.Actor(), 0);
  const v1::Decision d = *table.seats[0]->PendingDecision();
  auto rejections = [&](int seat) { return table.seats[seat]->Count(Msg::kRejected); };

  // SET-2: a road before the first settlement is illegal.
  table.Answer(0, d.step(), Encode(Action::BuildRoad(0)));
  ASSERT_EQ(rejections(0), 1);
  const std::string illegal = table.seats[0]->Last(Msg::kRejected)->rejected().error();
  EXPECT_NE(illegal.find("SET-"), std::string::npos) << illegal;

  table.Answer(0, d.step(), 0xFF00000000000000ull);  // no such action type
  ASSERT_EQ(rejections(0), 2);
  EXPECT_EQ(table.seats[0]->Last(Msg::kRejected)->rejected().error().rfind("malformed action: ", 0), 0u);

  // An empty answer is refused as empty, not as the chance action code 0 names.
  for (bool with_action : {false, true}) {
    v1::PlayAnswer empty;
    empty.set_step(d.step());
    if (with_action) empty.mutable_action();
    const int before = rejections(0);
    table.Find(0)->Answer(0, table.seats[0].get(), empty, t.clock.Now());
    ASSERT_EQ(rejections(0), before + 1);
    const std::string error = table.seats[0]->Last(Msg::kRejected)->rejected().error();
    EXPECT_EQ(error.rfind("empty answer: ", 0), 0u) << error;
  }

  table.Answer(0, d.step() + 5, d.view().legal(0));
  ASSERT_EQ(rejections(0), 5);
  EXPECT_NE(table.seats[0]->Last(Msg::kRejected)->rejected().error().find("is not the decision now"),
            std::string::npos);

  table.Answer(2, d.step(), d.view().legal(0));
  ASSERT_EQ(rejections(2), 1);
  EXPECT_NE(table.seats[2]->Last(Msg::kRejected)->rejected().error().find("not your decision"), std::string::npos);

  // Nothing moved: the same decision is still pending and a legal answer works.
  t.Settle();
  EXPECT_EQ(table.seats[0]->PendingDecision()->step(), d.step());
  table.Answer(0, d.step(), d.view().legal(0));
  t.Settle();
  EXPECT_EQ(rejections(0), 5);
  EXPECT_EQ(table.Actor(), 0);  // the road of the first settlement
  EXPECT_EQ(table.seats[0]->PendingDecision()->step(), d.step() + 1);
}

TEST(GameHost, SecondStreamIsRefusedUnlessItTakesOver) {
  TestHost t;
  Table table(&t);
  table.ConnectAll();
  auto intruder = std::make_shared<RecordingSeat>();
  v1::PlayHello hello;
  hello.set_game_id(table.created.game_id());
  grpc::Status s = table.Find(1)->Connect(1, hello, intruder);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_TRUE(intruder->updates.empty());

  auto old = table.seats[1];
  ASSERT_TRUE(table.Connect(1, /*take_over=*/true).ok());
  EXPECT_TRUE(old->finished);
  EXPECT_EQ(old->status.error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(table.seats[1]->Count(Msg::kWelcome), 1);
}

// GameHost.SeatsOf (docs/FAILURES.md, "Redis failover"): the matchmaker asks which
// live seats of a ladder some identities hold; a seat no stream plays comes with a
// fresh token, which plays it beside the first; a seat played now comes without.
TEST(GameHost, SeatsOfNamesTheLiveSeatsIdentitiesHoldAndGivesAbsentOnesATokenAgain) {
  TestHost t;
  v1::CreateGameRequest request;
  request.set_ladder("open");
  request.set_season(1);
  for (int i = 0; i < 4; ++i) {
    v1::SeatSpec* seat = request.add_seats();
    seat->set_name("p" + std::to_string(i));
    seat->set_identity_id(101 + i);
  }
  v1::CreateGameResponse created;
  ASSERT_TRUE(t.host->CreateGame(kAdmin, request, &created).ok());
  Host::Target target;
  ASSERT_TRUE(t.host->FindSeat(created.seat_tokens(0), created.game_id(), &target).ok());
  v1::PlayHello hello;
  hello.set_game_id(created.game_id());
  auto playing = std::make_shared<RecordingSeat>();
  ASSERT_TRUE(target.game->Connect(0, hello, playing).ok());

  v1::SeatsOfRequest ask;
  ask.set_ladder("open");
  ask.add_identity_ids(101);
  ask.add_identity_ids(103);
  ask.add_identity_ids(999);  // holds nothing
  v1::SeatsOfResponse held;
  ASSERT_TRUE(t.host->SeatsOf(kAdmin, ask, &held).ok());
  ASSERT_EQ(held.seats_size(), 2);
  std::map<int64_t, v1::HeldSeat> by_identity;
  for (const auto& h : held.seats()) by_identity[h.identity_id()] = h;
  EXPECT_TRUE(by_identity[101].connected());
  EXPECT_TRUE(by_identity[101].seat_token().empty());
  EXPECT_FALSE(by_identity[103].connected());
  EXPECT_EQ(by_identity[103].game_id(), created.game_id());
  ASSERT_EQ(by_identity[103].seat(), 2u);
  // The new token plays seat 2; the first one still does.
  Host::Target again;
  ASSERT_TRUE(t.host->FindSeat(by_identity[103].seat_token(), created.game_id(), &again).ok());
  EXPECT_EQ(again.seat, 2);
  Host::Target first;
  ASSERT_TRUE(t.host->FindSeat(created.seat_tokens(2), created.game_id(), &first).ok());
  EXPECT_EQ(first.seat, 2);

  // Asked round after round while the player queues, the seat keeps only its
  // last few tokens: the oldest given again stops working, the newest and the
  // first work.
  std::vector<std::string> given;
  ask.clear_identity_ids();
  ask.add_identity_ids(103);
  for (size_t i = 0; i < Game::kSeatTokensKept; ++i) {
    v1::SeatsOfResponse more;
    ASSERT_TRUE(t.host->SeatsOf(kAdmin, ask, &more).ok());
    ASSERT_EQ(more.seats_size(), 1);
    given.push_back(more.seats(0).seat_token());
  }
  Host::Target dropped;
  EXPECT_EQ(t.host->FindSeat(by_identity[103].seat_token(), created.game_id(), &dropped).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  for (const std::string& token : given) {
    Host::Target kept;
    ASSERT_TRUE(t.host->FindSeat(token, created.game_id(), &kept).ok());
    EXPECT_EQ(kept.seat, 2);
  }
  ASSERT_TRUE(t.host->FindSeat(created.seat_tokens(2), created.game_id(), &first).ok());

  // Another ladder's games are not looked at; bad requests change nothing.
  v1::SeatsOfResponse none;
  ask.set_ladder("other");
  ASSERT_TRUE(t.host->SeatsOf(kAdmin, ask, &none).ok());
  EXPECT_EQ(none.seats_size(), 0);
  EXPECT_EQ(t.host->SeatsOf(kSpectator, ask, &none).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(t.host->SeatsOf(created.seat_tokens(1), ask, &none).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  v1::SeatsOfRequest bad;
  EXPECT_EQ(t.host->SeatsOf(kAdmin, bad, &none).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  bad.set_ladder("open");
  EXPECT_EQ(t.host->SeatsOf(kAdmin, bad, &none).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  bad.add_identity_ids(-4);
  EXPECT_EQ(t.host->SeatsOf(kAdmin, bad, &none).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  for (int i = 0; i < 4097; ++i) ask.add_identity_ids(1000 + i);
  EXPECT_EQ(t.host->SeatsOf(kAdmin, ask, &none).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(none.seats_size(), 0);
}

TEST(GameHost, WrongTokensAndGames) {
  TestHost t;
  Table table(&t);
  Host::Target target;
  EXPECT_EQ(t.host->FindSeat("", table.created.game_id(), &target).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(t.host->FindSeat("forged", table.created.game_id(), &target).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(t.host->FindSeat(kAdmin, table.created.game_id(), &target).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(t.host->FindSeat(table.created.seat_tokens(0), "nope", &target).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(t.host->FindForViewing("forged", table.created.game_id(), &target).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  v1::ListGamesResponse list;
  EXPECT_EQ(t.host->ListGames("", {}, &list).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  ASSERT_TRUE(t.host->ListGames(kSpectator, {}, &list).ok());
  EXPECT_EQ(list.games_size(), 1);
}

// Pages follow each other through the tokens the host gives; a token it never
// gave is refused, not read as a place in the list.
TEST(GameHost, ListGamesPagesOnlyThroughItsOwnTokens) {
  TestHost t;
  Table a(&t), b(&t), c(&t);
  v1::ListGamesRequest request;
  request.set_page_size(2);
  v1::ListGamesResponse first, second;
  ASSERT_TRUE(t.host->ListGames(kSpectator, request, &first).ok());
  ASSERT_EQ(first.games_size(), 2);
  ASSERT_FALSE(first.next_page_token().empty());
  request.set_page_token(first.next_page_token());
  ASSERT_TRUE(t.host->ListGames(kSpectator, request, &second).ok());
  ASSERT_EQ(second.games_size(), 1);
  EXPECT_TRUE(second.next_page_token().empty());
  std::set<std::string> ids = {first.games(0).game_id(), first.games(1).game_id(), second.games(0).game_id()};
  EXPECT_EQ(ids, (std::set<std::string>{a.created.game_id(), b.created.game_id(), c.created.game_id()}));
  for (const std::string& forged : {std::string("zzz"), std::string("after:"), std::string("after:../x"),
                                    first.games(0).game_id(), std::string(100000, 'a')}) {
    request.set_page_token(forged);
    v1::ListGamesResponse out;
    const grpc::Status s = t.host->ListGames(kSpectator, request, &out);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << forged.substr(0, 40);
    EXPECT_EQ(s.error_message().rfind("page_token: ", 0), 0u) << s.error_message();
    EXPECT_LE(s.error_message().size(), 160u);
    EXPECT_EQ(out.games_size(), 0);
  }
}

TEST(GameHost, SeatOnTheWrongHostIsToldWhereTheGameIs) {
  InMemoryDirectory directory;
  TestHost a("host-a:1", &directory);
  TestHost b("host-b:2", &directory);
  Table table(&a);
  Host::Target target;
  ASSERT_TRUE(b.host->FindSeat(table.created.seat_tokens(0), table.created.game_id(), &target).ok());
  EXPECT_EQ(target.game, nullptr);
  EXPECT_EQ(target.redirect, "host-a:1");
  v1::GameInfo info;
  ASSERT_TRUE(b.host->GetGame(kSpectator, table.created.game_id(), &info).ok());
  EXPECT_EQ(info.host(), "host-a:1");
}

TEST(GameHost, TimeoutDrawsOnTheBankThenTheFallbackDecides) {
  TestHost t;
  Table table(&t);
  table.ConnectAll();
  t.Settle();
  const v1::Decision first = *table.seats[0]->PendingDecision();
  EXPECT_EQ(first.decision_ms_left(), 1000u);
  EXPECT_EQ(first.time_bank_ms_left(), 2000u);
  // Answer after 1.5 s: 0.5 s comes out of the bank.
  t.timers.AdvanceTo(1500);
  table.Answer(0, first.step(), first.view().legal(0));
  t.Settle();
  const v1::Decision second = *table.seats[0]->PendingDecision();
  EXPECT_EQ(second.time_bank_ms_left(), 1500u);
  // Then silence: at 1 s + 1.5 s the fallback bot plays the road.
  t.timers.AdvanceTo(1500 + 2499);
  t.Settle();
  EXPECT_EQ(table.seats[0]->PendingDecision()->step(), second.step());
  t.timers.AdvanceTo(1500 + 2500);
  t.Settle();
  EXPECT_EQ(table.Actor(), 1) << "seat 1 places next";
  v1::GameInfo info;
  ASSERT_TRUE(t.host->GetGame(kAdmin, table.created.game_id(), &info).ok());
  EXPECT_EQ(info.players(0).fallback_decisions(), 1u);
  EXPECT_EQ(info.players(0).decisions(), 1u);
  // A late answer to the step the bot took is refused, not applied.
  table.Answer(0, second.step(), second.view().legal(0));
  EXPECT_NE(table.seats[0]->Last(Msg::kRejected)->rejected().error().find("not your decision"), std::string::npos);
}

TEST(GameHost, DisconnectedSeatIsPlayedByTheFallbackAndCanComeBack) {
  TestHost t;
  Table table(&t);
  table.ConnectAll();
  t.Settle();
  ASSERT_EQ(table.Actor(), 0);
  auto gone = table.seats[0];
  table.Find(0)->Disconnect(0, gone.get());
  t.Settle();  // the fallback places seat 0's settlement and road
  EXPECT_EQ(table.Actor(), 1);
  // Seat 0 reconnects with its token and plays on from where the game stands.
  table.seats[0] = std::make_shared<RecordingSeat>();
  ASSERT_TRUE(table.Connect(0).ok());
  EXPECT_EQ(table.seats[0]->Count(Msg::kWelcome), 1);
  EXPECT_GT(table.seats[0]->updates[0]->welcome().step(), 0u);
  table.PlayOut();
  ASSERT_EQ(t.sink.games.size(), 1u);
  EXPECT_GE(t.sink.games[0].fallback_decisions[0], 2u);
  EXPECT_TRUE(table.seats[0]->finished);
  EXPECT_NE(table.seats[0]->Last(Msg::kGameOver), nullptr);
}

TEST(GameHost, SpectatorJoiningMidGameSeesOnlyPublicFacts) {
  TestHost t;
  Table table(&t);
  table.ConnectAll();
  // Play a while, then join from the start.
  for (int i = 0; i < 60; ++i) {
    t.Settle();
    const int actor = table.Actor();
    ASSERT_GE(actor, 0);
    const v1::Decision& d = *table.seats[actor]->PendingDecision();
    table.Answer(actor, d.step(), d.view().legal(d.view().legal_size() - 1));
  }
  auto spectator = std::make_shared<RecordingSpectator>();
  Host::Target target;
  ASSERT_TRUE(t.host->FindForViewing(kSpectator, table.created.game_id(), &target).ok());
  target.game->AddSpectator(/*from_start=*/true, spectator);
  ASSERT_GE(spectator->updates.size(), 3u);
  EXPECT_EQ(spectator->updates[0]->welcome().seat(), -1);
  EXPECT_TRUE(spectator->updates[1]->has_events());
  EXPECT_EQ(spectator->updates.back()->view().viewer(), -1);
  EXPECT_TRUE(spectator->updates.back()->view().legal().empty());
  table.PlayOut();
  EXPECT_TRUE(spectator->finished);
  EXPECT_TRUE(spectator->updates.back()->has_game_over());
  // No hidden card identity ever reached the spectator: every card a player
  // got by a steal or a draw reads "hidden".
  for (const auto& u : spectator->updates) {
    if (!u->has_events()) continue;
    for (const auto& e : u->events().events()) {
      if (e.type() == v1::EVENT_STOLE || e.type() == v1::EVENT_PROGRESS_DRAWN) {
        EXPECT_EQ(e.b(), kHiddenCard);
      }
    }
  }
  // Everyone's hands are masked in the public view.
  for (const auto& p : spectator->updates[spectator->updates.size() - 2]->view().position().players()) {
    for (uint32_t n : p.hand()) EXPECT_EQ(n, 0u);
  }
}

TEST(GameHost, GameOverIsToldOnlyOnceTheGameIsStored) {
  TestHost t;
  t.sink.Hold(true);  // a slow disk: the finished game waits to be kept
  Table table(&t);
  table.ConnectAll();
  table.PlayOut(1, [&] { return t.sink.waiting() > 0; });
  ASSERT_EQ(t.sink.waiting(), 1u);
  for (auto& seat : table.seats) EXPECT_EQ(seat->Count(Msg::kGameOver), 0);
  EXPECT_EQ(t.host->live_games(), 1u);
  t.sink.Hold(false);
  t.host->WaitStored();
  ASSERT_EQ(t.sink.games.size(), 1u);
  for (auto& seat : table.seats) EXPECT_EQ(seat->Count(Msg::kGameOver), 1);
  EXPECT_EQ(t.host->live_games(), 0u);
}

// An answer may write the checkpoint, which waits on Redis (an unreachable one
// for as long as a connection attempt lasts). The gRPC thread that read it only
// queues it on the game's strand; a game thread applies it, in the order the
// game's work came.
TEST(GameHost, AnswersAreAppliedOnTheGamesStrandInTheirOrder) {
  TestHost t("host-a:1", nullptr, true, /*strands=*/true);
  Table table(&t);
  table.ConnectAll();
  t.Settle();
  const int actor = table.Actor();
  ASSERT_GE(actor, 0);
  const v1::Decision decision = *table.seats[actor]->PendingDecision();
  const size_t updates_before = table.seats[actor]->updates.size();
  table.Answer(actor, decision.step(), decision.view().legal(0));
  table.Answer(actor, decision.step(), decision.view().legal(0));  // the same step again
  // Read, not applied: nothing was sent back on the reading thread.
  EXPECT_EQ(table.seats[actor]->updates.size(), updates_before);
  EXPECT_EQ(t.work.size(), 1u);  // one drain of the game's strand, holding both
  EXPECT_EQ(t.work.RunAll(), 1);
  // The first is applied; the second, behind it, finds the step moved on.
  EXPECT_GT(table.seats[actor]->updates.size(), updates_before);
  ASSERT_EQ(table.seats[actor]->Count(Msg::kRejected), 1);
  EXPECT_NE(table.seats[actor]->Last(Msg::kRejected)->rejected().error().find("is not the decision now"),
            std::string::npos);
  // And the game plays to its end that way.
  table.PlayOut();
  ASSERT_EQ(t.sink.games.size(), 1u);
}

TEST(GameHost, BuiltInSeatsPlayThemselves) {
  TestHost t;
  v1::CreateGameRequest request;
  for (int i = 0; i < 3; ++i) {
    auto* seat = request.add_seats();
    seat->set_built_in(true);
    seat->set_fallback_bot("random");
  }
  v1::CreateGameResponse response;
  ASSERT_TRUE(t.host->CreateGame(kAdmin, request, &response).ok());
  EXPECT_EQ(response.seat_tokens(0), "");
  t.Settle();
  ASSERT_EQ(t.sink.games.size(), 1u);
  EXPECT_EQ(t.sink.games[0].record.config.num_seats, 3);
}

TEST(GameHost, StoredSeatsSayWhetherANetworkClientOrABuiltInBotPlayedThem) {
  // A game as an administrator creates it (metropolisctl create-game): a network
  // seat without an identity, one with an identity, and two built-in bots.
  TestHost t;
  v1::CreateGameRequest request = FourPlayers(7);
  request.mutable_seats(0)->set_name("guest-bot");
  request.mutable_seats(1)->set_identity_id(55);
  for (int i : {2, 3}) {
    request.mutable_seats(i)->set_built_in(true);
    request.mutable_seats(i)->set_fallback_bot("random");
  }
  Table table(&t, request);
  ASSERT_TRUE(table.Connect(0).ok());
  ASSERT_TRUE(table.Connect(1).ok());
  table.PlayOut();
  ASSERT_EQ(t.sink.games.size(), 1u);
  EXPECT_EQ(t.sink.games[0].built_in, (std::vector<bool>{false, false, true, true}));
  v1::CompletedGameRecord record;
  CompletedGameToProto(t.sink.games[0], &record);
  ASSERT_EQ(record.seats_size(), 4);
  EXPECT_EQ(record.seats(0).name(), "guest-bot");
  EXPECT_EQ(record.seats(0).identity_id(), 0);
  EXPECT_EQ(record.seats(0).kind(), v1::SEAT_KIND_NETWORK);
  EXPECT_EQ(record.seats(1).identity_id(), 55);
  EXPECT_EQ(record.seats(1).kind(), v1::SEAT_KIND_NETWORK);
  EXPECT_EQ(record.seats(2).kind(), v1::SEAT_KIND_BUILT_IN);
  EXPECT_EQ(record.seats(3).kind(), v1::SEAT_KIND_BUILT_IN);
  // The ratings service is told identities only, as before: the seat without
  // one is not rated, whoever played it.
  v1::GameOutcome outcome;
  OutcomeOf(record, &outcome);
  ASSERT_EQ(outcome.seats_size(), 4);
  EXPECT_EQ(outcome.seats(0).identity_id(), 0);
  EXPECT_EQ(outcome.seats(1).identity_id(), 55);
  EXPECT_EQ(outcome.seats(2).identity_id(), 0);
}

}  // namespace
}  // namespace metropolis::gamehost::testing
