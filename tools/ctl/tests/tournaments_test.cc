// metropolisctl's tournament commands without a server: the request the flags
// describe, the progress line, the standings with their intervals, the CSV.
#include "tools/ctl/tournaments.h"

#include <gtest/gtest.h>

#include "tools/ctl/commands.h"

namespace metropolis::ctl {
namespace {

constexpr int64_t kNow = 1'800'000'000'000;

bool Build(std::vector<std::string> args, v1::CreateTournamentRequest* out, std::string* error) {
  cli::Flags flags = CreateTournamentFlags();
  if (!flags.Parse(args, error)) return false;
  return BuildCreateTournamentRequest(flags, {{"alice", 7}, {"bob", 9}}, kNow, out, error);
}

TEST(CtlTournaments, FlagsBecomeTheRequest) {
  v1::CreateTournamentRequest r;
  std::string error;
  ASSERT_TRUE(Build({"cup", "--format", "swiss", "--entrants", "alice,3,bob,4", "--rounds", "5", "--seats", "3",
                     "--seed", "42", "--max-games", "2", "--options", "vp_to_win=10"},
                    &r, &error))
      << error;
  EXPECT_EQ(r.id(), "cup");
  EXPECT_EQ(r.format(), "swiss");
  EXPECT_EQ(std::vector<int64_t>(r.entrants().begin(), r.entrants().end()), (std::vector<int64_t>{7, 3, 9, 4}));
  EXPECT_EQ(r.rounds(), 5u);
  EXPECT_EQ(r.seats(), 3u);
  EXPECT_EQ(r.seed(), 42u);
  EXPECT_EQ(r.max_games_per_entrant(), 2u);
  EXPECT_EQ(r.options(), "vp_to_win=10");
  EXPECT_TRUE(EntrantsNeedNames("1,alice"));
  EXPECT_FALSE(EntrantsNeedNames("1,2,3"));
}

// Registration: a start from now or at a UTC time, a maximum, a recurrence;
// entrants optional then, and each registration flag refused without a start.
TEST(CtlTournaments, AStartOpensRegistration) {
  v1::CreateTournamentRequest r;
  std::string error;
  ASSERT_TRUE(Build({"nightly", "--format", "duplicate", "--starts-in", "2h", "--max-entrants", "8", "--repeat", "1d"},
                    &r, &error))
      << error;
  EXPECT_EQ(r.starts_unix_ms(), kNow + 7'200'000);
  EXPECT_EQ(r.max_entrants(), 8u);
  EXPECT_EQ(r.repeat_every_ms(), 86'400'000);
  EXPECT_EQ(r.entrants_size(), 0);
  ASSERT_TRUE(
      Build({"cup", "--format", "swiss", "--starts-at", "2027-01-15T18:30:00Z", "--entrants", "alice"}, &r, &error))
      << error;
  EXPECT_EQ(r.starts_unix_ms(), 1'800'037'800'000);  // date -u -d 2027-01-15T18:30:00Z +%s
  EXPECT_EQ(r.entrants_size(), 1);
  int64_t ms = 0;
  EXPECT_TRUE(ParseDurationMs("90s", &ms));
  EXPECT_EQ(ms, 90'000);
  EXPECT_TRUE(ParseDurationMs("1500ms", &ms));
  EXPECT_EQ(ms, 1500);
  EXPECT_TRUE(ParseUtcTimeMs("2027-01-15 18:30Z", &ms));
  EXPECT_EQ(ms, 1'800'037'800'000);
  for (const char* bad : {"", "h", "5", "5y", "-5m", "1.5h", "9999999999s"})
    EXPECT_FALSE(ParseDurationMs(bad, &ms)) << bad;
  for (const char* bad :
       {"2027-01-15", "2027-01-15T18:30:00", "2027-01-15T18:30:00+01:00", "2027-13-15T18:30Z", "tomorrow"})
    EXPECT_FALSE(ParseUtcTimeMs(bad, &ms)) << bad;

  const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
      {{"cup", "--format", "swiss", "--starts-in", "soon"}, "--starts-in"},
      {{"cup", "--format", "swiss", "--starts-in", "1h", "--starts-at", "2027-01-15T18:30Z"}, "give one"},
      {{"cup", "--format", "swiss", "--starts-at", "2027-01-15T18:30+02:00"}, "--starts-at"},
      {{"cup", "--format", "swiss", "--entrants", "1,2,3,4", "--repeat", "1d"}, "--repeat needs a start"},
      {{"cup", "--format", "swiss", "--starts-in", "1h", "--repeat", "daily"}, "--repeat"},
      {{"cup", "--format", "swiss", "--entrants", "1,2,3,4", "--max-entrants", "8"}, "--max-entrants needs a start"},
      {{"cup", "--format", "swiss"}, "--entrants is required"},
  };
  for (const auto& [args, mentions] : refused) {
    error.clear();
    EXPECT_FALSE(Build(args, &r, &error)) << mentions;
    EXPECT_NE(error.find(mentions), std::string::npos) << error;
  }
}

TEST(CtlTournaments, ASequentialStopIsAskedFor) {
  v1::CreateTournamentRequest r;
  std::string error;
  ASSERT_TRUE(Build({"dup", "--format", "duplicate", "--entrants", "1,2,3,4", "--rounds", "200", "--sequential-stop"},
                    &r, &error))
      << error;
  EXPECT_TRUE(r.sequential_stop());
  ASSERT_TRUE(Build({"dup", "--format", "duplicate", "--entrants", "1,2,3,4"}, &r, &error)) << error;
  EXPECT_FALSE(r.sequential_stop());
  v1::Tournament t;
  t.set_id("dup");
  t.set_format("duplicate");
  t.set_state("finished");
  t.set_games_total(64);
  t.set_games_finished(64);
  t.set_games_void(736);
  EXPECT_NE(ProgressLine(t).find("64/64 games finished, 0 playing"), std::string::npos) << ProgressLine(t);
  EXPECT_NE(ProgressLine(t).find("(736 void: stopped early)"), std::string::npos) << ProgressLine(t);
}

TEST(CtlTournaments, AnArenaHasADuration) {
  v1::CreateTournamentRequest r;
  std::string error;
  ASSERT_TRUE(Build({"blitz", "--format", "arena", "--arena", "30m", "--entrants", "1,2,3,4"}, &r, &error)) << error;
  EXPECT_EQ(r.arena_ms(), 1'800'000);
  EXPECT_FALSE(Build({"blitz", "--format", "arena", "--entrants", "1,2,3,4"}, &r, &error));
  EXPECT_NE(error.find("--arena"), std::string::npos) << error;
  EXPECT_FALSE(Build({"blitz", "--format", "arena", "--arena", "long", "--entrants", "1,2,3,4"}, &r, &error));
  EXPECT_NE(error.find("--arena"), std::string::npos) << error;
  v1::Tournament t;
  t.set_id("blitz");
  t.set_format("arena");
  t.set_state("running");
  t.set_starts_unix_ms(1'800'000'000'000);
  t.set_arena_ms(1'800'000);
  t.set_games_total(9);
  t.set_games_finished(7);
  t.set_games_playing(2);
  EXPECT_EQ(ProgressLine(t), "blitz (arena, running): pairing until " + FormatUnixMs(1'800'001'800'000) +
                                 ", 7 games finished, 2 playing");
}

TEST(CtlTournaments, RegisteringTournamentsShowEntriesAndTheStart) {
  v1::Tournament t;
  t.set_id("nightly");
  t.set_format("duplicate");
  t.set_state("registering");
  t.set_max_entrants(8);
  t.set_starts_unix_ms(1'800'037'800'000);
  t.add_entrants()->set_name("alpha");
  t.add_entrants()->set_name("beta");
  EXPECT_EQ(ProgressLine(t),
            "nightly (duplicate, registering): 2/8 entered, starts " + FormatUnixMs(1'800'037'800'000));
  t.set_state("cancelled");
  t.set_reason("too few entrants: 2 entered by the start, a table needs 4");
  EXPECT_NE(ProgressLine(t).find("cancelled): too few entrants"), std::string::npos) << ProgressLine(t);
}

TEST(CtlTournaments, BadFlagsNameWhatIsWrong) {
  v1::CreateTournamentRequest r;
  std::string error;
  EXPECT_FALSE(Build({"--format", "swiss", "--entrants", "1,2,3,4"}, &r, &error));
  EXPECT_NE(error.find("tournament id"), std::string::npos) << error;
  EXPECT_FALSE(Build({"cup", "--entrants", "1,2,3,4"}, &r, &error));
  EXPECT_NE(error.find("--format"), std::string::npos) << error;
  EXPECT_FALSE(Build({"cup", "--format", "swiss"}, &r, &error));
  EXPECT_NE(error.find("--entrants"), std::string::npos) << error;
  EXPECT_FALSE(Build({"cup", "--format", "swiss", "--entrants", "alice,carol"}, &r, &error));
  EXPECT_NE(error.find("'carol'"), std::string::npos) << error;
  EXPECT_FALSE(Build({"cup", "--format", "swiss", "--entrants", "1,2,3", "--seats", "5"}, &r, &error));
  EXPECT_NE(error.find("seats"), std::string::npos) << error;
}

v1::Tournament Sample() {
  v1::Tournament t;
  t.set_id("cup");
  t.set_format("swiss");
  t.set_state("running");
  t.set_rounds(3);
  t.set_seats(4);
  t.set_current_round(1);
  t.set_games_total(4);
  t.set_games_finished(3);
  t.set_games_playing(1);
  auto* e = t.add_entrants();
  e->set_identity_id(7);
  e->set_name("alice");
  auto* s = t.add_standings();
  s->set_rank(1);
  s->set_identity_id(7);
  s->set_name("alice");
  s->set_games(3);
  s->set_wins(2);
  s->set_score(0.75);
  s->set_ci_low(0.5);
  s->set_ci_high(1.0);
  return t;
}

TEST(CtlTournaments, ProgressAndStandingsForPeople) {
  const v1::Tournament t = Sample();
  EXPECT_EQ(ProgressLine(t), "cup (swiss, running): round 2 of 3, 3/4 games finished, 1 playing  [" +
                                 std::string(22, '#') + std::string(8, '.') + "] 75 %");
  EXPECT_EQ(IntervalBar(0.5, 0.75, 1.0, 11), "|     [--*-]|");
  EXPECT_EQ(IntervalBar(0.0, 0.0, 0.0, 5), "|*    |");
  const std::string table = StandingsTable(t);
  EXPECT_NE(table.find("alice"), std::string::npos);
  EXPECT_NE(table.find("0.750"), std::string::npos);
  EXPECT_NE(table.find("0.500-1.000"), std::string::npos);
}

// Duplicate: the sets column, and the pairs below.
TEST(CtlTournaments, DuplicateStandingsShowSetsAndPairs) {
  v1::Tournament t = Sample();
  t.set_format("duplicate");
  t.mutable_standings(0)->set_sets(2);
  auto* p = t.add_pairs();
  p->set_a_name("alice");
  p->set_b_identity_id(8);
  p->set_shared(16);
  p->set_difference(0.25);
  p->set_ci_low(0.125);
  p->set_ci_high(0.375);
  p->set_better(true);
  p->set_sprt("H1");
  p->set_sprt_llr(3.75);
  const std::string standings = StandingsTable(t);
  EXPECT_NE(standings.find("sets"), std::string::npos);
  const std::string pairs = PairsTable(t);
  for (const char* want : {"ahead", "alice", "8 ", "16", "0.250", "0.125 to 0.375", "yes", "H1", "3.75"})
    EXPECT_NE(pairs.find(want), std::string::npos) << want << " in\n" << pairs;
  t.clear_pairs();
  EXPECT_EQ(PairsTable(t), "");
}

TEST(CtlTournaments, GamesAsCsv) {
  const v1::Tournament t = Sample();
  v1::ListTournamentGamesResponse games;
  auto* g = games.add_games();
  g->set_number(0);
  g->set_set(-1);
  g->set_state("finished");
  g->set_game_id("t-cup-0-1");
  g->set_attempts(1);
  for (int64_t id : {7, 8, 9, 10}) g->add_entrants(id);
  for (uint32_t p : {1, 2, 2, 4}) g->add_places(p);
  EXPECT_EQ(TournamentGamesCsv(t, games),
            "number,round,set,rotation,state,game_id,attempts,seat0,place0,seat1,place1,seat2,place2,seat3,place3\n"
            "0,0,-1,0,finished,t-cup-0-1,1,alice,1,8,2,9,2,10,4\n");
}

TEST(CtlEnqueue, QueuedLineForPeople) {
  v1::Queued q;
  q.set_ticket_id("t1");
  q.set_position(1);
  q.set_queue_size(5);
  q.set_waited_ms(3400);
  q.set_rating(24.6);
  EXPECT_EQ(QueuedLine(q), "queued on ticket t1: position 2 of 5, waited 3 s (rating 25)");
}

}  // namespace
}  // namespace metropolis::ctl
