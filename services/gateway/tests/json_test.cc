#include "services/gateway/json.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "engine/action.h"

namespace metropolis::gateway {
namespace {

v1::StoredGameSummary Game(const std::string& id, std::vector<int64_t> identities, int winner, std::vector<uint32_t> vp,
                           std::vector<bool> forfeited = {}) {
  v1::StoredGameSummary g;
  g.set_game_id(id);
  g.set_ladder("open");
  g.set_season(1);
  g.set_finished_unix_ms(1700000000000);
  g.mutable_result()->set_reason(winner >= 0 ? v1::END_REASON_WON : v1::END_REASON_LENGTH_CAP);
  g.mutable_result()->set_winner(winner);
  for (size_t i = 0; i < identities.size(); ++i) {
    v1::SeatRecord* s = g.add_seats();
    s->set_seat(uint32_t(i));
    s->set_identity_id(identities[i]);
    s->set_name(identities[i] ? "p" + std::to_string(identities[i]) : "bot:heuristic");
    s->set_forfeited(i < forfeited.size() && forfeited[i]);
    g.mutable_result()->add_vp(vp[i]);
  }
  return g;
}

TEST(Errors, HttpStatusOfBackendStatuses) {
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::INVALID_ARGUMENT), 400);
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::OUT_OF_RANGE), 400);
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::NOT_FOUND), 404);
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::UNAVAILABLE), 503);
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::DEADLINE_EXCEEDED), 503);
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::UNAUTHENTICATED), 502);
  EXPECT_EQ(HttpStatusFor(grpc::StatusCode::INTERNAL), 502);
  const ApiError e = BackendError({grpc::StatusCode::UNAVAILABLE, "failed to connect"}, "ratings");
  const Json j = ErrorToJson(e);
  EXPECT_EQ(j["error"]["code"], 503);
  EXPECT_EQ(j["error"]["status"], "UNAVAILABLE");
  EXPECT_EQ(j["error"]["grpc_status"], "UNAVAILABLE");
  EXPECT_EQ(j["error"]["backend"], "ratings");
  EXPECT_EQ(j["error"]["message"], "ratings: failed to connect");
  EXPECT_FALSE(j["error"].contains("parameter"));
  const Json bad = ErrorToJson(BadParameter("limit", "too big"));
  EXPECT_EQ(bad, Json::parse(R"({"error":{"code":400,"status":"INVALID_ARGUMENT","message":"limit: too big",
                                 "parameter":"limit"}})"));
}

TEST(Places, AsTheRatingsServiceRanks) {
  // The winner first whatever the points; equal points share a place; a
  // forfeit is last.
  const v1::StoredGameSummary g = Game("g1", {1, 2, 3, 4}, 2, {9, 11, 13, 9}, {false, true, false, false});
  EXPECT_EQ(Places(g.result(), g.seats()), (std::vector<int>{2, 4, 1, 2}));
  const v1::StoredGameSummary capped = Game("g2", {1, 2, 3}, -1, {5, 6, 7});
  EXPECT_TRUE(Places(capped.result(), capped.seats()).empty());
}

TEST(GameSummary, SeatsWithPointsAndPlaces) {
  const Json j = GameSummaryToJson(Game("g1", {7, 0, 9}, 0, {13, 8, 10}));
  EXPECT_EQ(j["game_id"], "g1");
  EXPECT_EQ(j["ladder"], "open");
  EXPECT_EQ(j["tournament"], nullptr);
  EXPECT_EQ(j["result"]["reason"], "won");
  EXPECT_EQ(j["result"]["winner"], 0);
  ASSERT_EQ(j["players"].size(), 3u);
  EXPECT_EQ(j["players"][0]["identity_id"], 7);
  EXPECT_EQ(j["players"][0]["place"], 1);
  EXPECT_EQ(j["players"][1]["identity_id"], nullptr);
  EXPECT_EQ(j["players"][1]["built_in"], true);
  EXPECT_EQ(j["players"][1]["place"], 3);
  EXPECT_EQ(j["players"][2]["place"], 2);
  EXPECT_EQ(j["players"][2]["vp"], 10);
  const Json capped = GameSummaryToJson(Game("g2", {1, 2, 3}, -1, {5, 6, 7}));
  EXPECT_EQ(capped["result"]["winner"], nullptr);
  EXPECT_EQ(capped["players"][0]["place"], nullptr);
}

TEST(GameSummary, SeatsShownAsWhoPlayedThem) {
  // A network client without an account (a seat of a game an administrator
  // created, a tournament's seat), one with an account, and a built-in bot.
  v1::StoredGameSummary g = Game("g1", {0, 7, 0}, 0, {13, 8, 10});
  g.mutable_seats(0)->set_name("guest-bot");
  g.mutable_seats(0)->set_kind(v1::SEAT_KIND_NETWORK);
  g.mutable_seats(1)->set_kind(v1::SEAT_KIND_NETWORK);
  g.mutable_seats(2)->set_kind(v1::SEAT_KIND_BUILT_IN);
  const Json j = GameSummaryToJson(g);
  EXPECT_EQ(j["players"][0]["name"], "guest-bot");
  EXPECT_EQ(j["players"][0]["identity_id"], nullptr);
  EXPECT_EQ(j["players"][0]["built_in"], false);
  EXPECT_EQ(j["players"][0]["played_by"], "network");
  EXPECT_EQ(j["players"][1]["identity_id"], 7);
  EXPECT_EQ(j["players"][1]["built_in"], false);
  EXPECT_EQ(j["players"][1]["played_by"], "network");
  EXPECT_EQ(j["players"][2]["identity_id"], nullptr);
  EXPECT_EQ(j["players"][2]["built_in"], true);
  EXPECT_EQ(j["players"][2]["played_by"], "built_in");
  // A built-in bot may hold an identity; the kind decides, not the identity.
  g.mutable_seats(1)->set_kind(v1::SEAT_KIND_BUILT_IN);
  EXPECT_EQ(GameSummaryToJson(g)["players"][1]["built_in"], true);
  // The replay shows its seats the same way.
  v1::CompletedGameRecord replay;
  *replay.mutable_seats() = g.seats();
  *replay.mutable_result() = g.result();
  EXPECT_EQ(ReplayToJson(replay)["players"][0]["played_by"], "network");
}

TEST(GameSummary, RecordsStoredBeforeSeatKindsReadAsBefore) {
  // No kind (UNSPECIFIED): no identity reads as a built-in bot, as it always did.
  const Json j = GameSummaryToJson(Game("g1", {7, 0}, 0, {13, 8}));
  EXPECT_EQ(j["players"][0]["built_in"], false);
  EXPECT_EQ(j["players"][0]["played_by"], "network");
  EXPECT_EQ(j["players"][1]["built_in"], true);
  EXPECT_EQ(j["players"][1]["played_by"], "built_in");
}

TEST(FrequentOpponents, CountsAheadBehindAndLevel) {
  std::vector<v1::StoredGameSummary> games = {
      Game("g1", {1, 2, 3, 0}, 0, {13, 9, 9, 5}),   // 1 ahead of 2 and 3
      Game("g2", {2, 1, 3, 4}, 0, {13, 9, 9, 2}),   // 1 behind 2, level with 3, ahead of 4
      Game("g3", {3, 1, 5, 6}, 1, {12, 13, 4, 4}),  // 1 ahead of 3
      Game("g4", {2, 1, 3, 4}, -1, {5, 5, 5, 5}),   // not ranked: not counted
      Game("g5", {2, 3, 4, 5}, 0, {13, 1, 1, 1}),   // without player 1
  };
  const std::vector<OpponentRecord> r = FrequentOpponents(games, 1, 3);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].identity_id, 3);
  EXPECT_EQ(r[0].games, 3);
  EXPECT_EQ(r[0].ahead, 2);
  EXPECT_EQ(r[0].level, 1);
  EXPECT_EQ(r[0].behind, 0);
  EXPECT_EQ(r[1].identity_id, 2);
  EXPECT_EQ(r[1].games, 2);
  EXPECT_EQ(r[1].ahead, 1);
  EXPECT_EQ(r[1].behind, 1);
  EXPECT_EQ(r[2].name, "p4");  // one game each with 4, 5 and 6: by name
  EXPECT_EQ(OpponentToJson(r[0])["name"], "p3");
}

TEST(PlayerStats, GamesWinsAndAveragePlaceByBoardAndInAll) {
  auto on = [](v1::StoredGameSummary g, const std::string& ladder, uint32_t season) {
    g.set_ladder(ladder);
    g.set_season(season);
    return g;
  };
  const std::vector<v1::StoredGameSummary> games = {
      on(Game("g1", {1, 2, 3, 4}, 0, {13, 9, 9, 5}), "open", 2),           // 1st
      on(Game("g2", {2, 1, 3, 4}, 0, {13, 9, 9, 2}), "open", 2),           // 2nd
      on(Game("g3", {2, 1, 3, 4}, -1, {5, 5, 5, 5}), "open", 2),           // not ranked
      on(Game("g4", {2, 3, 1, 4}, 0, {13, 11, 9, 2}), "open", 1),          // 3rd
      on(Game("g5", {2, 3, 4, 1}, 0, {13, 1, 1, 1}, {}), "duo", 1),        // 2nd, tied with two
      on(Game("g6", {1, 0, 0, 0}, 0, {13, 4, 4, 4}), "", 0),               // practice: 1st
      on(Game("g7", {2, 3, 4, 5}, 0, {13, 1, 1, 1}), "open", 2),           // without player 1
      on(Game("g8", {1, 2, 3, 4}, 1, {13, 14, 9, 5}, {true}), "open", 2),  // forfeited: last
  };
  const PlayerStats s = PlayerStatsOf(games, 1);
  ASSERT_EQ(s.boards.size(), 4u);
  // Ladders by id, newest season first, the games of no ladder last.
  EXPECT_EQ(s.boards[0].ladder, "duo");
  EXPECT_EQ(s.boards[1].ladder, "open");
  EXPECT_EQ(s.boards[1].season, 2u);
  EXPECT_EQ(s.boards[2].season, 1u);
  EXPECT_EQ(s.boards[3].ladder, "");
  const PlayerStatsRow& open2 = s.boards[1];
  EXPECT_EQ(open2.games, 4);
  EXPECT_EQ(open2.ranked, 3);
  EXPECT_EQ(open2.wins, 1);
  EXPECT_EQ(open2.place_sum, 1 + 2 + 4);
  EXPECT_EQ(s.boards[0].place_sum, 2);
  EXPECT_EQ(s.all.games, 7);
  EXPECT_EQ(s.all.ranked, 6);
  EXPECT_EQ(s.all.wins, 2);
  const Json j = PlayerStatsToJson(s);
  EXPECT_EQ(j["boards"][1]["ladder"], "open");
  EXPECT_EQ(j["boards"][1]["season"], 2);
  EXPECT_DOUBLE_EQ(j["boards"][1]["average_place"].get<double>(), 7.0 / 3);
  EXPECT_TRUE(j["boards"][3]["ladder"].is_null());
  EXPECT_TRUE(j["boards"][3]["season"].is_null());
  EXPECT_EQ(j["all"]["wins"], 2);
  EXPECT_FALSE(j["all"].contains("ladder"));
  // Nothing ranked: no average.
  EXPECT_TRUE(PlayerStatsToJson(PlayerStatsOf({games[2]}, 1))["all"]["average_place"].is_null());
}

TEST(Replay, ActionsWithText) {
  v1::CompletedGameRecord g;
  g.set_game_id("g1");
  g.mutable_config()->set_num_seats(4);
  *g.add_seats() = v1::SeatRecord();
  Action roll{};
  roll.type = ActionType::kRoll;
  g.add_actions(Encode(roll));
  g.add_actions(~uint64_t{0});  // no action has this code
  g.set_chance_seed(~uint64_t{0});
  const Json j = ReplayToJson(g);
  EXPECT_EQ(j["steps"], 2);
  EXPECT_EQ(j["actions"][0]["text"], ActionToString(roll));
  EXPECT_EQ(j["actions"][0]["code"], std::to_string(Encode(roll)));
  EXPECT_EQ(j["actions"][1]["text"], "");
  EXPECT_EQ(j["chance_seed"], "18446744073709551615");  // exact, as a string
  EXPECT_EQ(j["config"]["num_seats"], 4);               // protobuf's JSON, names as in the .proto
}

// A live game keeps every events text for spectators who watch from the start:
// each holds about its own length, not the doubling that appends leave.
TEST(Sse, EventTextsHoldAboutTheirLength) {
  for (const std::string& data : {std::string(300, 'x'), std::string(4500, 'y'), std::string("a\nb\nc"), std::string(),
                                  std::string(1000, '\n')}) {
    for (const char* id : {"", "12345"}) {
      const std::string text = SseEvent("events", data, id);
      EXPECT_LE(text.capacity(), text.size() + size_t(std::count(data.begin(), data.end(), '\n')) + 16)
          << data.size() << " bytes of data";
    }
  }
}

TEST(Sse, EventFraming) {
  EXPECT_EQ(SseEvent("view", R"({"a":1})", "12"), "event: view\nid: 12\ndata: {\"a\":1}\n\n");
  EXPECT_EQ(SseEvent("x", "one\ntwo"), "event: x\ndata: one\ndata: two\n\n");
  v1::SpectateUpdate update;
  update.mutable_view()->mutable_position()->set_action_count(42);
  const std::string view = SpectateUpdateToSse(update);
  EXPECT_EQ(view.rfind("event: view\nid: 42\ndata: {", 0), 0u);
  update.mutable_redirect()->set_host("elsewhere:1");
  EXPECT_EQ(SpectateUpdateToSse(update), "");
  v1::SpectateUpdate events;
  Action roll{};
  roll.type = ActionType::kRoll;
  v1::Event* e = events.mutable_events()->add_events();
  e->set_type(v1::EVENT_ACTION);
  e->mutable_action()->set_code(Encode(roll));
  // A chance outcome a spectator may not see: the card drawn is hidden.
  v1::Event* draw = events.mutable_events()->add_events();
  draw->set_type(v1::EVENT_ACTION);
  draw->set_seat(-2);
  draw->mutable_action()->set_code(0x0300000000FE0000ull);
  const std::string text = SpectateUpdateToSse(events);
  EXPECT_NE(text.find("\"text\":\"" + ActionToString(roll) + "\""), std::string::npos) << text;
  EXPECT_EQ(text.find("\"text\":\"\""), std::string::npos) << text;
}

TEST(Leaderboard, EntriesAndProvisionalRank) {
  v1::Leaderboard board;
  board.set_ladder("open");
  board.set_season(2);
  board.set_total(1000000);
  v1::LeaderboardEntry* e = board.add_entries();
  e->set_rank(1);
  e->set_identity_id(5);
  e->set_name("alice");
  e->set_ordinal(30.5);
  const Json j = LeaderboardToJson(board);
  EXPECT_EQ(j["total"], 1000000);
  EXPECT_EQ(j["entries"][0]["name"], "alice");
  EXPECT_EQ(j["entries"][0]["ordinal"], 30.5);
  v1::PlayerRating r;
  r.set_provisional(true);
  r.set_rank(0);
  EXPECT_EQ(PlayerRatingToJson(r)["rank"], nullptr);
}

TEST(Ladders, SeasonsAndCurrent) {
  LadderRow l;
  l.id = "open";
  l.seasons = {{1, 100, 200}, {2, 200, 0}};
  l.allow_three_after_ms = -1;
  l.bot_fill_after_ms = 20000;
  const Json j = LadderToJson(l);
  EXPECT_EQ(j["current_season"], 2);
  EXPECT_EQ(j["seasons"][0]["ends_unix_ms"], 200);
  EXPECT_EQ(j["seasons"][1]["ends_unix_ms"], nullptr);
  EXPECT_EQ(j["allow_three_after_ms"], nullptr);
  EXPECT_EQ(j["bot_fill_after_ms"], 20000);
}

}  // namespace
}  // namespace metropolis::gateway

namespace metropolis::gateway {
namespace {

v1::Tournament SampleTournament() {
  v1::Tournament t;
  t.set_id("cup");
  t.set_title("The cup");
  t.set_format("round-robin");
  t.set_ruleset("cities_and_knights");
  t.set_seats(4);
  t.set_rounds(1);
  t.set_seed(18446744073709551615ull);  // above 2^53: a string, read exactly
  t.set_state("running");
  t.set_created_unix_ms(1700000000000);
  t.set_games_total(5);
  t.set_games_playing(1);
  t.set_games_finished(3);
  for (int i = 0; i < 5; ++i) {
    v1::TournamentEntrant* e = t.add_entrants();
    e->set_index(uint32_t(i));
    e->set_identity_id(100 + i);
    e->set_name("tb" + std::to_string(i + 1));
  }
  v1::Standing* s = t.add_standings();
  s->set_rank(1);
  s->set_identity_id(100);
  s->set_name("tb1");
  s->set_games(3);
  s->set_wins(2);
  s->set_score(0.75);
  s->set_ci_low(0.5);
  s->set_ci_high(1.0);
  v1::Standing* one = t.add_standings();  // one game: no interval
  one->set_rank(2);
  one->set_identity_id(101);
  one->set_games(1);
  one->set_score(0.5);
  v1::Standing* none = t.add_standings();  // no game yet: no score either
  none->set_rank(3);
  none->set_identity_id(102);
  return t;
}

TEST(Tournaments, SummaryHasNoProgress) {
  const Json j = TournamentSummaryToJson(SampleTournament());
  EXPECT_EQ(j["id"], "cup");
  EXPECT_EQ(j["entrant_count"], 5);
  EXPECT_EQ(j["finished_unix_ms"], nullptr);
  EXPECT_FALSE(j.contains("standings"));
  EXPECT_FALSE(j.contains("games_total"));
}

// Registration: the start, the room, the recurrence; a cancellation's reason.
TEST(Tournaments, RegistrationAndRecurrence) {
  v1::Tournament t = SampleTournament();
  Json j = TournamentSummaryToJson(t);
  EXPECT_EQ(j["repeat_every_ms"], nullptr);
  EXPECT_EQ(j["series"], nullptr);
  EXPECT_EQ(j["reason"], nullptr);
  EXPECT_EQ(j["arena_ends_unix_ms"], nullptr);
  t.set_format("arena");
  t.set_starts_unix_ms(1'800'000'000'000);
  t.set_arena_ms(1'800'000);
  EXPECT_EQ(TournamentSummaryToJson(t)["arena_ends_unix_ms"], 1'800'001'800'000);
  t.set_state("registering");
  t.set_starts_unix_ms(1'800'000'000'000);
  t.set_max_entrants(16);
  t.set_repeat_every_ms(86'400'000);
  t.set_series("nightly");
  t.set_occurrence(3);
  j = TournamentSummaryToJson(t);
  EXPECT_EQ(j["state"], "registering");
  EXPECT_EQ(j["starts_unix_ms"], 1'800'000'000'000);
  EXPECT_EQ(j["max_entrants"], 16);
  EXPECT_EQ(j["repeat_every_ms"], 86'400'000);
  EXPECT_EQ(j["series"], "nightly");
  EXPECT_EQ(j["occurrence"], 3);
  t.set_state("cancelled");
  t.set_reason("too few entrants: 2 entered by the start, a table needs 4");
  EXPECT_EQ(TournamentToJson(t)["reason"], "too few entrants: 2 entered by the start, a table needs 4");
}

TEST(Tournaments, StandingsWithIntervals) {
  const Json j = TournamentToJson(SampleTournament());
  EXPECT_EQ(j["seed"], "18446744073709551615");
  EXPECT_EQ(j["games_total"], 5);
  EXPECT_EQ(j["games_finished"], 3);
  EXPECT_EQ(j["games_void"], 0);
  EXPECT_EQ(j["sequential_stop"], false);
  ASSERT_EQ(j["entrants"].size(), 5u);
  EXPECT_EQ(j["entrants"][4]["name"], "tb5");
  ASSERT_EQ(j["standings"].size(), 3u);
  EXPECT_EQ(j["standings"][0]["score"], 0.75);
  EXPECT_EQ(j["standings"][0]["ci_low"], 0.5);
  EXPECT_EQ(j["standings"][0]["ci_high"], 1.0);
  EXPECT_EQ(j["standings"][1]["score"], 0.5);
  EXPECT_EQ(j["standings"][1]["ci_low"], nullptr);
  EXPECT_EQ(j["standings"][2]["score"], nullptr);
  EXPECT_EQ(j["standings"][2]["ci_high"], nullptr);
  EXPECT_EQ(j["standings"][0]["sets"], nullptr);  // not duplicate
  EXPECT_TRUE(j["pairs"].empty());
}

// Duplicate: score and interval per complete set, so a standing with one set
// has a score and no interval whatever its games; and the pairs.
TEST(Tournaments, DuplicateStandingsBySetAndPairs) {
  v1::Tournament t = SampleTournament();
  t.set_format("duplicate");
  t.mutable_standings(0)->set_sets(1);
  v1::PairComparison* p = t.add_pairs();
  p->set_a_identity_id(100);
  p->set_a_name("tb1");
  p->set_b_identity_id(101);
  p->set_shared(2);
  p->set_difference(0.5);
  p->set_ci_low(0.25);
  p->set_ci_high(0.75);
  p->set_better(true);
  p->set_sprt("continue");
  p->set_sprt_llr(1.5);
  p->set_sprt_sets(2);
  v1::PairComparison* once = t.add_pairs();
  once->set_shared(1);
  const Json j = TournamentToJson(t);
  EXPECT_EQ(j["standings"][0]["sets"], 1);
  EXPECT_EQ(j["standings"][0]["score"], 0.75);
  EXPECT_EQ(j["standings"][0]["ci_low"], nullptr);  // 3 games, but one set
  EXPECT_EQ(j["standings"][1]["score"], nullptr);   // one game, no complete set
  ASSERT_EQ(j["pairs"].size(), 2u);
  EXPECT_EQ(j["pairs"][0]["a"]["name"], "tb1");
  EXPECT_EQ(j["pairs"][0]["b"]["identity_id"], 101);
  EXPECT_EQ(j["pairs"][0]["difference"], 0.5);
  EXPECT_EQ(j["pairs"][0]["ci_low"], 0.25);
  EXPECT_EQ(j["pairs"][0]["better"], true);
  EXPECT_EQ(j["pairs"][0]["sprt"], "continue");
  EXPECT_EQ(j["pairs"][0]["sprt_sets"], 2);
  EXPECT_EQ(j["pairs"][1]["ci_low"], nullptr);
}

TEST(Tournaments, GamesNameTheirSeats) {
  v1::ListTournamentGamesResponse games;
  v1::TournamentGame* g = games.add_games();
  g->set_number(0);
  g->set_round(1);
  g->set_set(-1);
  for (int64_t id : {103, 100, 101, 102}) g->add_entrants(id);
  g->set_chance_seed(9);
  g->set_state("finished");
  g->set_game_id("g-1");
  for (uint32_t p : {2, 1, 4, 3}) g->add_places(p);
  v1::TournamentGame* pending = games.add_games();
  pending->set_number(1);
  pending->set_set(0);
  for (int64_t id : {104, 999, 101, 102}) pending->add_entrants(id);
  pending->set_state("pending");
  const Json j = TournamentGamesToJson(SampleTournament(), games);
  EXPECT_EQ(j["tournament"], "cup");
  ASSERT_EQ(j["games"].size(), 2u);
  EXPECT_EQ(j["games"][0]["set"], nullptr);
  EXPECT_EQ(j["games"][0]["game_id"], "g-1");
  EXPECT_EQ(j["games"][0]["chance_seed"], "9");
  EXPECT_EQ(j["games"][0]["players"][0]["name"], "tb4");
  EXPECT_EQ(j["games"][0]["players"][0]["place"], 2);
  EXPECT_EQ(j["games"][1]["set"], 0);
  EXPECT_EQ(j["games"][1]["game_id"], nullptr);
  EXPECT_EQ(j["games"][1]["players"][1]["name"], "");  // not an entrant: no name to give
  EXPECT_EQ(j["games"][1]["players"][1]["place"], nullptr);
}

}  // namespace
}  // namespace metropolis::gateway
