// The debug channel on the host (gamehost.proto, AnswerDebug; debug_log.h): a
// bot's notes, evaluations and think times reach the completed game, bounded,
// and no stream — the seats' own, the others', a spectator's — ever carries them.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "metropolis/v1/replays.pb.h"
#include "services/gamehost/debug_log.h"
#include "services/gamehost/results.h"
#include "services/gamehost/tests/fakes.h"
#include "services/gamehost/tests/seats.h"

namespace metropolis::gamehost::testing {
namespace {

using Msg = v1::PlayUpdate::MsgCase;

constexpr char kMark[] = "NOTE-MARK";

std::string NoteFor(int seat, uint32_t step) {
  return std::string(kMark) + " s" + std::to_string(seat) + " @" + std::to_string(step);
}

TEST(GameHostDebug, NotesEvaluationsAndThinkTimesReachTheStoredGameAndNoStream) {
  TestHost t;
  const v1::CreateGameResponse created = CreateGame(&t, 21);
  Seats seats(&t, &created);
  seats.Connect();
  auto spectator = std::make_shared<RecordingSpectator>();
  seats.game->AddSpectator(/*from_start=*/true, spectator);
  std::vector<int> answers(4, 0);
  seats.decorate = [&](int seat, const v1::Decision& d, v1::PlayAnswer* answer) {
    // Each seat thinks its own time, on the host's clock.
    t.timers.AdvanceTo(t.clock.Now() + 7 * (seat + 1));
    answer->mutable_debug()->set_note(NoteFor(seat, d.step()));
    if (d.step() % 2 == 0) answer->mutable_debug()->set_evaluation(d.step() / 1000.0);
    ++answers[seat];
  };
  seats.Play(100000);
  ASSERT_EQ(t.sink.games.size(), 1u);
  const CompletedGame& done = t.sink.games[0];
  v1::CompletedGameRecord record;
  CompletedGameToProto(done, &record);
  ASSERT_EQ(record.debug_size(), 4);
  for (int seat = 0; seat < 4; ++seat) {
    const v1::SeatDebug& d = record.debug(seat);
    EXPECT_EQ(int(d.seat()), seat);
    EXPECT_EQ(d.recorded_from_step(), 0u);
    EXPECT_EQ(d.notes_dropped(), 0u);
    ASSERT_EQ(d.steps_size(), answers[seat]) << "one entry per answer the seat's stream gave";
    uint32_t last = 0;
    for (const v1::StepDebug& s : d.steps()) {
      EXPECT_TRUE(s.step() > last || last == 0);
      last = s.step();
      EXPECT_EQ(s.note(), NoteFor(seat, s.step()));
      EXPECT_EQ(s.think_ms(), uint32_t(7 * (seat + 1)));
      EXPECT_EQ(s.has_evaluation(), s.step() % 2 == 0);
      if (s.has_evaluation()) {
        EXPECT_DOUBLE_EQ(s.evaluation(), s.step() / 1000.0);
      }
      // The step is the seat's own decision in the stored log (not chance's, not another's).
      ASSERT_LT(s.step(), done.record.actions.size());
    }
  }
  // Not one byte of a note went out on any stream.
  for (int seat = 0; seat < 4; ++seat)
    for (const auto& u : seats.streams[seat]->updates)
      EXPECT_EQ(u->SerializeAsString().find(kMark), std::string::npos) << "seat " << seat << " was sent a note";
  ASSERT_FALSE(spectator->updates.empty());
  for (const auto& u : spectator->updates)
    EXPECT_EQ(u->SerializeAsString().find(kMark), std::string::npos) << "a spectator was sent a note";
  // Nor in the JSON archive beside the delivery.
  EXPECT_EQ(CompletedGameToJson(done).find(kMark), std::string::npos);
}

TEST(GameHostDebug, ALongNoteOrANonFiniteEvaluationIsRefusedAndChangesNothing) {
  TestHost t;
  const v1::CreateGameResponse created = CreateGame(&t, 22);
  Seats seats(&t, &created);
  seats.Connect();
  t.Settle();
  const int actor = seats.Actor();
  ASSERT_GE(actor, 0);
  const v1::Decision d = *seats.streams[actor]->PendingDecision();
  auto answer_with = [&](const std::function<void(v1::AnswerDebug*)>& fill) {
    v1::PlayAnswer answer;
    answer.set_step(d.step());
    answer.mutable_action()->set_code(d.view().legal(0));
    fill(answer.mutable_debug());
    seats.game->Answer(actor, seats.streams[actor].get(), answer, t.clock.Now());
    t.Settle();
  };
  answer_with([](v1::AnswerDebug* debug) { debug->set_note(std::string(kMaxNoteBytes + 1, 'x')); });
  ASSERT_EQ(seats.streams[actor]->Count(Msg::kRejected), 1);
  EXPECT_EQ(seats.streams[actor]->Last(Msg::kRejected)->rejected().error(),
            "debug note of 257 bytes: at most 256 per answer; nothing was applied");
  for (double bad : {std::nan(""), std::numeric_limits<double>::infinity()}) {
    answer_with([bad](v1::AnswerDebug* debug) { debug->set_evaluation(bad); });
    EXPECT_EQ(seats.streams[actor]->Last(Msg::kRejected)->rejected().error(),
              "debug evaluation is not a finite number; nothing was applied");
  }
  ASSERT_EQ(seats.streams[actor]->Count(Msg::kRejected), 3);
  // Nothing moved; a note of exactly the limit goes with its answer.
  ASSERT_EQ(seats.streams[actor]->PendingDecision()->step(), d.step());
  answer_with([](v1::AnswerDebug* debug) { debug->set_note(std::string(kMaxNoteBytes, 'y')); });
  EXPECT_EQ(seats.streams[actor]->Count(Msg::kRejected), 3);
  ASSERT_GE(seats.Actor(), 0);
  EXPECT_GT(seats.streams[seats.Actor()]->PendingDecision()->step(), d.step());
}

TEST(SeatDebugLog, PastTheBudgetNotesAreDroppedAndCountedButEveryThinkTimeIsKept) {
  SeatDebugLog log;
  v1::AnswerDebug full;
  full.set_note(std::string(kMaxNoteBytes, 'n'));  // 256 of them fill the 64 KiB exactly
  for (uint32_t step = 0; step < 300; ++step) log.Record(step * 4, step, &full);
  const uint32_t fit = kMaxDebugBytes / kMaxNoteBytes;
  EXPECT_EQ(log.bytes(), kMaxDebugBytes);
  EXPECT_EQ(log.dropped(), 300u - fit);
  EXPECT_EQ(log.steps(), 300u);
  EXPECT_EQ(log.notes(), fit);
  // An evaluation counts 8 bytes: none fits now; a step without debug costs nothing.
  v1::AnswerDebug evaluation;
  evaluation.set_evaluation(0.5);
  log.Record(2000, 1, &evaluation);
  log.Record(2004, 1, nullptr);
  EXPECT_EQ(log.dropped(), 300u - fit + 1);

  v1::SeatDebug proto;
  log.ToProto(3, 12, &proto);
  EXPECT_EQ(proto.seat(), 3u);
  EXPECT_EQ(proto.recorded_from_step(), 12u);
  EXPECT_EQ(proto.notes_dropped(), log.dropped());
  ASSERT_EQ(proto.steps_size(), 302);
  for (uint32_t i = 0; i < 300; ++i) {
    EXPECT_EQ(proto.steps(int(i)).step(), i * 4);
    EXPECT_EQ(proto.steps(int(i)).think_ms(), i);
    EXPECT_EQ(proto.steps(int(i)).note().empty(), i >= fit) << i;
  }
  EXPECT_FALSE(proto.steps(300).has_evaluation());
  EXPECT_EQ(proto.steps(301).step(), 2004u);
}

}  // namespace
}  // namespace metropolis::gamehost::testing
