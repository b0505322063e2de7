// What a host reads back of a checkpoint (checkpoint.h): the setup and the text
// the Redis store keeps. tests/fuzz/checkpoint_fuzz.cc fuzzes the same readers;
// a reproducer it found is a test here.
#include <gtest/gtest.h>

#include "metropolis/v1/checkpoint.pb.h"
#include "services/gamehost/checkpoint.h"
#include "services/gamehost/game.h"

namespace metropolis::gamehost {
namespace {

GameSetup FourSeats() {
  GameSetup setup;
  setup.id = "g1";
  setup.config.num_seats = 4;
  setup.config.board = DefaultBoard();
  for (int i = 0; i < 4; ++i) setup.seats.push_back({"p" + std::to_string(i), "", TokenHash("t"), "random", false, i});
  setup.chance_seed = 7;
  return setup;
}

TEST(CheckpointText, ASetupReadsBackAsWritten) {
  const GameSetup setup = FourSeats();
  GameSetup back;
  int64_t created = 0;
  std::string error;
  ASSERT_TRUE(SetupFromCheckpoint(CheckpointSetupBytes(setup, 123), &back, &created, &error)) << error;
  EXPECT_EQ(back.id, "g1");
  EXPECT_EQ(back.config, setup.config);
  ASSERT_EQ(back.seats.size(), 4u);
  EXPECT_EQ(back.seats[3].identity_id, 3);
  EXPECT_EQ(back.chance_seed, 7u);
  EXPECT_EQ(created, 123);
}

// Found by checkpoint_fuzz (tests/fuzz/corpus/checkpoint_fuzz/empty_setup_no_seats):
// an empty setup parses as a 4-seat game with no seats, and was taken; a game
// indexes its seats by the engine's seat numbers, past the end of the list.
TEST(CheckpointText, AnEmptySetupIsRefused) {
  GameSetup back;
  int64_t created = 0;
  std::string error;
  EXPECT_FALSE(SetupFromCheckpoint("", &back, &created, &error));
  EXPECT_EQ(error, "the checkpoint's seats: 0 for a game of 4 seats");
}

TEST(CheckpointText, ASetupWithOneSeatPerGameSeatOnlyIsRead) {
  for (int seats : {0, 3, 5}) {
    GameSetup setup = FourSeats();
    setup.seats.resize(size_t(seats), setup.seats[0]);
    GameSetup back;
    int64_t created = 0;
    std::string error;
    EXPECT_FALSE(SetupFromCheckpoint(CheckpointSetupBytes(setup, 1), &back, &created, &error)) << seats;
    EXPECT_EQ(error, "the checkpoint's seats: " + std::to_string(seats) + " for a game of 4 seats");
  }
}

TEST(CheckpointText, ASetupThatDoesNotParseOrHasABadConfigurationIsRefused) {
  GameSetup back;
  int64_t created = 0;
  std::string error;
  EXPECT_FALSE(SetupFromCheckpoint("\xff\xff", &back, &created, &error));
  EXPECT_EQ(error, "the checkpoint's setup does not parse");
  v1::GameCheckpointSetup p;
  p.mutable_config()->set_num_seats(9);
  EXPECT_FALSE(SetupFromCheckpoint(p.SerializeAsString(), &back, &created, &error));
  EXPECT_EQ(error.rfind("the checkpoint's config: ", 0), 0u) << error;
}

TEST(CheckpointText, PhaseProgressAndLogReadBackAsWritten) {
  Checkpoint c;
  for (const GamePhase& phase : {GamePhase(false, 0), GamePhase(true, 0), GamePhase(true, 1764806400000),
                                 GamePhase(true, 1764806400000, 0), GamePhase(true, 1764806400000, 3)}) {
    ASSERT_TRUE(DecodePhase(EncodePhase(phase), &c));
    EXPECT_EQ(GamePhase(c.started, c.finished_unix_ms, c.resigned_seat), phase);
  }
  EXPECT_EQ(EncodePhase(GamePhase(true, 17, 2)), "f17r2");
  const std::vector<SeatProgress> seats = {{-5, 1, 2, 3, true}, {300000, 0, 0, 0, false}};
  std::vector<SeatProgress> back;
  ASSERT_TRUE(DecodeProgress(EncodeProgress(seats), &back));
  EXPECT_EQ(back, seats);
  const Action end_turn = Action::Make(ActionType::kEndTurn);
  Action a;
  ASSERT_TRUE(DecodeLogEntry(EncodeLogEntry(end_turn), &a));
  EXPECT_EQ(a, end_turn);
}

TEST(CheckpointText, TextTheStoreNeverWritesIsRefused) {
  Checkpoint c;
  for (const char* phase :
       {"2", "f", "f0", "f-1", "f12x", " 1", "x", "f12r", "f12r-1", "f12rx", "fr2", "f0r2", "f12r2r3"})
    EXPECT_FALSE(DecodePhase(phase, &c)) << phase;
  std::vector<SeatProgress> seats;
  for (const char* progress : {";", "1,2,3,4", "1,2,3,4,5,6", "1,,3,4,0", "1,-2,3,4,0", "a,2,3,4,0"})
    EXPECT_FALSE(DecodeProgress(progress, &seats)) << progress;
  Action a;
  for (const char* entry : {"", "-1", "12a", "18446744073709551616"}) EXPECT_FALSE(DecodeLogEntry(entry, &a)) << entry;
}

}  // namespace
}  // namespace metropolis::gamehost
