// PlayAnswer.resign (gamehost.proto): a seat that resigns ends the game for
// every seat, on its turn or not; the game is stored as resigned
// (END_REASON_RESIGNED, GameResult.resigned_seat) with the seat forfeited, so
// that it ranks last wherever the record is ranked. A resignation is refused
// after the end and before the start. Its writing to the checkpoint, and a
// takeover of a resigned game, are in checkpoint_test.cc.
#include <gtest/gtest.h>

#include "lib/ranking/places.h"
#include "metropolis/v1/replays.pb.h"
#include "services/gamehost/results.h"
#include "services/gamehost/tests/fakes.h"
#include "services/gamehost/tests/seats.h"

namespace metropolis::gamehost::testing {
namespace {

using Msg = v1::PlayUpdate::MsgCase;

v1::PlayAnswer Resignation() {
  v1::PlayAnswer answer;
  answer.set_resign(true);
  return answer;
}

void Resign(Seats& seats, int seat) {
  seats.game->Answer(seat, seats.streams[size_t(seat)].get(), Resignation(), seats.host->clock.Now());
  seats.host->Settle();
}

// A four-seat game on a host of its own, every seat connected.
struct ConnectedGame {
  explicit ConnectedGame(uint64_t seed) : created(CreateGame(&t, seed)), seats(&t, &created) { seats.Connect(); }
  TestHost t;
  v1::CreateGameResponse created;
  Seats seats;
};

TEST(Resign, ASeatOffItsTurnResignsAndTheGameEndsWithItLast) {
  ConnectedGame g(5);
  TestHost& t = g.t;
  Seats& seats = g.seats;
  ASSERT_EQ(seats.Play(80), 80);
  const int actor = seats.Actor();
  ASSERT_GE(actor, 0);
  const int resigner = (actor + 1) % 4;                                            // not its decision
  const uint32_t steps = seats.streams[size_t(actor)]->PendingDecision()->step();  // the actions applied
  Resign(seats, resigner);

  ASSERT_EQ(t.sink.games.size(), 1u);
  const CompletedGame& done = t.sink.games[0];
  EXPECT_EQ(done.reason, EndReason::kResigned);
  EXPECT_EQ(done.resigned_seat, resigner);
  EXPECT_EQ(done.record.actions.size(), steps) << "the game ends where it stood";
  for (int i = 0; i < 4; ++i) EXPECT_EQ(done.forfeited[size_t(i)], i == resigner) << "seat " << i;
  v1::CompletedGameRecord record;
  CompletedGameToProto(done, &record);
  EXPECT_EQ(record.result().reason(), v1::END_REASON_RESIGNED);
  ASSERT_TRUE(record.result().has_resigned_seat());
  EXPECT_EQ(int(record.result().resigned_seat()), resigner);
  EXPECT_EQ(record.result().winner(), -1);
  // Every seat hears the end, with who resigned.
  for (int i = 0; i < 4; ++i) {
    const v1::PlayUpdate* over = seats.streams[size_t(i)]->Last(Msg::kGameOver);
    ASSERT_NE(over, nullptr) << "seat " << i;
    EXPECT_EQ(over->game_over().result().reason(), v1::END_REASON_RESIGNED);
    EXPECT_EQ(int(over->game_over().result().resigned_seat()), resigner);
  }
  // Ranked as every reader ranks the record: the resigning seat last alone.
  std::vector<int> vp(done.vp.begin(), done.vp.end());
  const std::vector<int> places = ranking::PlacesOf(-1, vp, done.forfeited);
  for (int i = 0; i < 4; ++i) {
    if (i != resigner) {
      EXPECT_LT(places[size_t(i)], places[size_t(resigner)]);
    }
  }
  EXPECT_EQ(places[size_t(resigner)], 4);
}

TEST(Resign, TheSeatOnTurnResignsToo) {
  ConnectedGame g(6);
  TestHost& t = g.t;
  Seats& seats = g.seats;
  ASSERT_EQ(seats.Play(30), 30);
  const int actor = seats.Actor();
  ASSERT_GE(actor, 0);
  Resign(seats, actor);
  ASSERT_EQ(t.sink.games.size(), 1u);
  EXPECT_EQ(t.sink.games[0].resigned_seat, actor);
}

TEST(Resign, RefusedOnceTheGameIsOverAndBeforeItStarts) {
  ConnectedGame g(8);
  TestHost& t = g.t;
  Seats& seats = g.seats;
  // Played to its end, which the sink holds: the streams are open until it is kept.
  t.sink.Hold(true);
  for (int i = 0; i < 100000 && t.sink.waiting() == 0; ++i) seats.Play(1);
  ASSERT_EQ(t.sink.waiting(), 1u);
  Resign(seats, 1);
  const v1::PlayUpdate* late = seats.streams[1]->Last(Msg::kRejected);
  ASSERT_NE(late, nullptr);
  EXPECT_EQ(late->rejected().error(), "the game is over");
  t.sink.Hold(false);
  t.Settle();
  ASSERT_EQ(t.sink.games.size(), 1u);
  EXPECT_NE(t.sink.games[0].reason, EndReason::kResigned);
  EXPECT_EQ(t.sink.games[0].resigned_seat, -1);

  // Before the start: one seat of four connected, so the game waits for the rest.
  const v1::CreateGameResponse waiting = CreateGame(&t, 9);
  Host::Target target;
  ASSERT_TRUE(t.host->FindSeat(waiting.seat_tokens(0), waiting.game_id(), &target).ok());
  v1::PlayHello hello;
  hello.set_game_id(waiting.game_id());
  auto stream = std::make_shared<RecordingSeat>();
  ASSERT_TRUE(target.game->Connect(0, hello, stream).ok());
  target.game->Answer(0, stream.get(), Resignation(), t.clock.Now());
  t.Settle();
  const v1::PlayUpdate* refused = stream->Last(Msg::kRejected);
  ASSERT_NE(refused, nullptr);
  EXPECT_NE(refused->rejected().error().find("has not started"), std::string::npos) << refused->rejected().error();
  EXPECT_EQ(t.sink.games.size(), 1u);
}

}  // namespace
}  // namespace metropolis::gamehost::testing
