// The ratings logic over fakes of its stores and peers (tests/fake_stores.h,
// tests/fakes.h), with no server: exactly once per game, only results whose
// digest Replays confirms, a different second result refused, games that are
// not rated saying why, leaderboards ranked and named, the board versions that
// catch what the cache missed or holds ahead (each with its negative control),
// and bad requests refused with precise statuses. What only the real
// PostgreSQL and Redis can show (locks, snapshots, scripts, ACLs) is in
// ratings_pg_redis_test.cc. Ranking rule: docs/RATINGS.md.
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "lib/auth/tests/fake_account_lookup.h"
#include "lib/auth/token_authenticator.h"
#include "services/ratings/metrics.h"
#include "services/ratings/rate.h"
#include "services/ratings/service.h"
#include "services/ratings/tests/fake_stores.h"
#include "services/ratings/tests/fakes.h"

namespace metropolis::ratings {
namespace {

constexpr char kServiceToken[] = "host-secret";

class RatingsLogicTest : public ::testing::Test {
 protected:
  void AddLadder(const std::string& id, int placement_games) {
    LadderInfo info;
    info.placement_games = placement_games;
    info.latest_season = 1;
    accounts_.AddLadder(id, info);
  }
  std::vector<int64_t> AddPlayers(int n) {
    std::vector<int64_t> ids;
    for (int i = 0; i < n; ++i) {
      ids.push_back(next_player_ + 100);
      accounts_.AddName(ids.back(), "player" + std::to_string(next_player_++));
    }
    return ids;
  }
  // A game Replays holds (with its digest), and its result.
  void AddGame(const std::string& id, const std::string& ladder, int season, int winner, const std::vector<int>& vp,
               const std::vector<int64_t>& identities, const std::vector<bool>& forfeited = {}) {
    requests_[id] = testing::Result(id, ladder, season, winner, vp, identities, forfeited);
    replays_.Store(id, requests_[id].digest());
  }
  v1::RateGameResponse Rate(const std::string& game_id, Ratings* through = nullptr) {
    v1::RateGameResponse response;
    const grpc::Status s = (through ? through : &ratings_)->RateGame(requests_.at(game_id), &response);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return response;
  }
  void ExpectNothingWritten() {
    EXPECT_EQ(store_.RatedGames(), 0u);
    EXPECT_EQ(store_.Ratings(), 0u);
    EXPECT_EQ(store_.HistoryRows(), 0u);
  }
  int GamesOf(int64_t identity, const std::string& ladder = "open") {
    const auto state = store_.Save();
    auto it = state.ratings.find({ladder, 1, identity});
    return it == state.ratings.end() ? 0 : it->second.games;
  }
  v1::Leaderboard Top(const std::string& ladder, Ratings* through = nullptr, uint32_t limit = 50) {
    v1::GetLeaderboardRequest request;
    request.set_ladder(ladder);
    request.set_limit(limit);
    v1::Leaderboard board;
    const grpc::Status s = (through ? through : &ratings_)->GetLeaderboard(request, &board);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return board;
  }
  // identity -> games, as a read through `replica` shows the board.
  std::map<int64_t, int> Shown(Ratings& replica, const std::string& ladder = "open") {
    std::map<int64_t, int> out;
    const v1::Leaderboard board = Top(ladder, &replica);
    for (const auto& e : board.entries()) out[e.identity_id()] = int(e.games());
    return out;
  }
  // identity -> games of the ladder's players, as the store holds them.
  std::map<int64_t, int> InStore(const std::string& ladder = "open") {
    std::map<int64_t, int> out;
    for (const auto& [key, rating] : store_.Save().ratings)
      if (std::get<0>(key) == ladder) out[rating.identity_id] = rating.games;
    return out;
  }

  testing::FakeRatingStore store_;
  testing::FakeLeaderboardCache cache_;
  testing::FakeStoredGames replays_;
  testing::FakeLadders accounts_;
  Ratings ratings_{&store_, &cache_, &replays_, &accounts_};
  std::map<std::string, v1::RateGameRequest> requests_;
  int next_player_ = 0;
};

// Ratings section "exactly once"; ranking rule: winner first, others by points.
TEST_F(RatingsLogicTest, AGameIsRatedOnceWithTheModelsNumbersAndItsHistory) {
  AddLadder("open", 0);
  const auto p = AddPlayers(4);
  AddGame("g1", "open", 1, 2, {7, 9, 10, 9}, p);
  const v1::RateGameResponse first = Rate("g1");
  ASSERT_TRUE(first.rated());
  EXPECT_FALSE(first.already_rated());
  ASSERT_EQ(first.changes_size(), 4);
  const std::vector<int> want_ranks = {4, 2, 1, 2};
  const RatingParams params;
  const auto want = RatePlackettLuce(std::vector<Rating>(4, InitialRating(params)), want_ranks, params);
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(first.changes(s).identity_id(), p[s]);
    EXPECT_EQ(int(first.changes(s).rank()), want_ranks[s]);
    EXPECT_DOUBLE_EQ(first.changes(s).mu_after(), want[s].mu);
    EXPECT_DOUBLE_EQ(first.changes(s).sigma_after(), want[s].sigma);
  }
  const v1::RateGameResponse again = Rate("g1");
  EXPECT_TRUE(again.rated());
  EXPECT_TRUE(again.already_rated());
  ASSERT_EQ(again.changes_size(), 4);
  for (int s = 0; s < 4; ++s) EXPECT_DOUBLE_EQ(again.changes(s).mu_after(), first.changes(s).mu_after());
  EXPECT_EQ(store_.HistoryRows(), 4u);
  for (int64_t id : p) EXPECT_EQ(GamesOf(id), 1);
  EXPECT_EQ(store_.RatedGames(), 1u);
}

TEST_F(RatingsLogicTest, GamesThatAreNotRatedSayWhyOnceAndChangeNothing) {
  AddLadder("open", 0);
  const auto p = AddPlayers(3);
  AddGame("capped", "open", 1, -1, {8, 7, 6}, p);
  AddGame("elsewhere", "unregistered", 1, 0, {10, 7, 6}, p);
  AddGame("no-season", "open", 0, 0, {10, 7, 6}, p);
  AddGame("later-season", "open", 2, 0, {10, 7, 6}, p);
  AddGame("twice", "open", 1, 0, {10, 7, 6}, {p[0], p[0], p[1]});
  AddGame("bots", "open", 1, 0, {10, 7, 6}, {0, 0, 0});
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"capped", "not rated: ended without a winner"},
      {"elsewhere", "not rated: ladder 'unregistered' is not registered"},
      {"no-season", "not rated: the game has no season"},
      {"later-season", "not rated: season 2 of ladder 'open' is not registered"},
      {"twice", "not rated: identity " + std::to_string(p[0]) + " holds two seats"},
      {"bots", "not rated: no seat has an identity"}};
  for (const auto& [id, why] : cases) {
    const v1::RateGameResponse r = Rate(id);
    EXPECT_FALSE(r.rated()) << id;
    EXPECT_EQ(r.not_rated_reason(), why);
    const v1::RateGameResponse again = Rate(id);
    EXPECT_TRUE(again.already_rated());
    EXPECT_EQ(again.not_rated_reason(), why);
  }
  EXPECT_EQ(store_.Ratings(), 0u);
  EXPECT_EQ(store_.HistoryRows(), 0u);

  v1::RateGameResponse response;
  const grpc::Status missing =
      ratings_.RateGame(testing::Result("never-stored", "open", 1, 0, {10, 7, 6}, p), &response);
  EXPECT_EQ(missing.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(missing.error_message(), "game never-stored is not stored: store it with Replays.StoreGame first");
  EXPECT_EQ(store_.RatedGames(), cases.size());
}

// A seat without an identity (a built-in bot) plays as a newcomer; a forfeited
// seat ranks last whatever its points.
TEST_F(RatingsLogicTest, BotSeatsCountInTheRankingAndForfeitsRankLast) {
  AddLadder("open", 0);
  const auto p = AddPlayers(2);
  AddGame("g", "open", 1, 1, {12, 10, 5, 4}, {p[0], p[1], 0, 0}, {true, false, false, false});
  const v1::RateGameResponse r = Rate("g");
  ASSERT_TRUE(r.rated());
  EXPECT_EQ(r.changes(0).rank(), 4u);  // forfeited with the most points
  EXPECT_EQ(r.changes(1).rank(), 1u);
  EXPECT_EQ(r.changes(2).rank(), 2u);
  EXPECT_EQ(r.changes(3).rank(), 3u);
  EXPECT_EQ(store_.Ratings(), 2u);
  EXPECT_EQ(store_.HistoryRows(), 2u);
}

// Leaderboards: by ordinal, provisional players apart; ranks, the page around
// a player and the history's pages agree.
TEST_F(RatingsLogicTest, LeaderboardsRankByOrdinalAndKeepPlacementPlayersApart) {
  AddLadder("ranked", 2);
  const auto p = AddPlayers(6);
  // p[0..3] play two games each; p[4], p[5] one game: provisional.
  AddGame("l0", "ranked", 1, 0, {10, 8, 6, 4}, {p[0], p[1], p[2], p[3]});
  AddGame("l1", "ranked", 1, 1, {7, 10, 6, 4}, {p[0], p[1], p[2], p[3]});
  AddGame("l2", "ranked", 1, 0, {10, 8, 7}, {p[4], p[5], 0});
  for (const char* g : {"l0", "l1", "l2"}) ASSERT_TRUE(Rate(g).rated());

  const v1::Leaderboard board = Top("ranked");
  ASSERT_EQ(board.total(), 4u);
  ASSERT_EQ(board.entries_size(), 4);
  // The expected order straight from the definition: mu − 3σ, highest first.
  std::vector<std::pair<double, int64_t>> expected;
  for (const auto& [key, r] : store_.Save().ratings)
    if (r.games >= 2) expected.push_back({r.mu - 3 * r.sigma, r.identity_id});
  std::sort(expected.rbegin(), expected.rend());
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(board.entries(i).rank(), uint64_t(i + 1));
    EXPECT_EQ(board.entries(i).identity_id(), expected[i].second);
    EXPECT_DOUBLE_EQ(board.entries(i).ordinal(), expected[i].first);
    EXPECT_FALSE(board.entries(i).name().empty());
    EXPECT_EQ(board.entries(i).games(), 2u);
  }

  v1::GetPlayerRatingRequest who;
  who.set_ladder("ranked");
  who.set_identity_id(board.entries(2).identity_id());
  v1::PlayerRating rating;
  ASSERT_TRUE(ratings_.GetPlayerRating(who, &rating).ok());
  EXPECT_EQ(rating.rank(), 3u);
  EXPECT_EQ(rating.total(), 4u);
  EXPECT_FALSE(rating.provisional());
  who.set_identity_id(p[4]);
  ASSERT_TRUE(ratings_.GetPlayerRating(who, &rating).ok());
  EXPECT_TRUE(rating.provisional());
  EXPECT_EQ(rating.rank(), 0u);
  EXPECT_EQ(rating.games(), 1u);

  v1::GetLeaderboardRequest around;
  around.set_ladder("ranked");
  around.set_limit(2);
  around.set_around_identity_id(board.entries(3).identity_id());
  v1::Leaderboard page;
  ASSERT_TRUE(ratings_.GetLeaderboard(around, &page).ok());
  ASSERT_EQ(page.entries_size(), 2);
  EXPECT_EQ(page.entries(0).rank(), 3u);
  EXPECT_EQ(page.entries(1).identity_id(), board.entries(3).identity_id());

  v1::GetRatingHistoryRequest history;
  history.set_ladder("ranked");
  history.set_identity_id(p[0]);
  history.set_limit(1);
  v1::RatingHistory h;
  ASSERT_TRUE(ratings_.GetRatingHistory(history, &h).ok());
  ASSERT_EQ(h.entries_size(), 1);
  EXPECT_EQ(h.entries(0).game_id(), "l1");
  EXPECT_DOUBLE_EQ(h.entries(0).ordinal_after(), h.entries(0).mu_after() - 3 * h.entries(0).sigma_after());
  ASSERT_FALSE(h.next_page_token().empty());
  history.set_page_token(h.next_page_token());
  v1::RatingHistory older;
  ASSERT_TRUE(ratings_.GetRatingHistory(history, &older).ok());
  ASSERT_EQ(older.entries_size(), 1);
  EXPECT_EQ(older.entries(0).game_id(), "l0");
  EXPECT_DOUBLE_EQ(older.entries(0).mu_after(), h.entries(0).mu_before());
  EXPECT_TRUE(older.next_page_token().empty());
}

TEST_F(RatingsLogicTest, ALeaderboardTheCacheLostIsRebuiltFromTheStore) {
  AddLadder("open", 0);
  const auto p = AddPlayers(8);
  for (int g = 0; g < 10; ++g)
    AddGame("r" + std::to_string(g), "open", 1, g % 4, {10, 5 + g % 3, 4, 3},
            {p[g % 8], p[(g + 1) % 8], p[(g + 2) % 8], p[(g + 5) % 8]});
  for (int g = 0; g < 10; ++g) ASSERT_TRUE(Rate("r" + std::to_string(g)).rated());
  const v1::Leaderboard before = Top("open");
  ASSERT_EQ(before.total(), 8u);
  const uint64_t rebuilds = ratings_.rebuilds();

  cache_.Flush();  // the cache lost everything
  const v1::Leaderboard after = Top("open");
  EXPECT_EQ(ratings_.rebuilds(), rebuilds + 1);
  ASSERT_EQ(after.entries_size(), before.entries_size());
  for (int i = 0; i < after.entries_size(); ++i) {
    EXPECT_EQ(after.entries(i).identity_id(), before.entries(i).identity_id());
    EXPECT_DOUBLE_EQ(after.entries(i).ordinal(), before.entries(i).ordinal());
  }
}

// The cache unreachable while a game is rated: the rating is kept anyway, reads
// say UNAVAILABLE, and a restarted replica rebuilds every board.
TEST_F(RatingsLogicTest, AWriteTheCacheMissedIsRepairedByTheRebuild) {
  AddLadder("open", 0);
  const auto p = AddPlayers(3);
  AddGame("a", "open", 1, 0, {10, 5, 4}, p);
  AddGame("b", "open", 1, 1, {5, 10, 4}, p);
  ASSERT_TRUE(Rate("a").rated());
  ASSERT_EQ(Top("open").total(), 3u);

  testing::FakeLeaderboardCache dead;
  dead.unavailable = true;
  Ratings cut_off(&store_, &dead, &replays_, &accounts_);
  EXPECT_TRUE(Rate("b", &cut_off).rated());
  v1::GetLeaderboardRequest request;
  request.set_ladder("open");
  v1::Leaderboard unused;
  EXPECT_EQ(cut_off.GetLeaderboard(request, &unused).error_code(), grpc::StatusCode::UNAVAILABLE);

  Ratings restarted(&store_, &cache_, &replays_, &accounts_);
  uint64_t players = 0;
  ASSERT_TRUE(restarted.RebuildAll(&players).ok());
  EXPECT_EQ(players, 3u);
  const v1::Leaderboard board = Top("open", &restarted);
  for (const auto& e : board.entries()) EXPECT_EQ(e.games(), 2u) << e.identity_id();
}

// The store unreachable: every call is UNAVAILABLE, and nothing is half-done.
TEST_F(RatingsLogicTest, TheStoreUnavailableIsRetryableAndWritesNothing) {
  AddLadder("open", 0);
  const auto p = AddPlayers(3);
  AddGame("g", "open", 1, 0, {10, 7, 6}, p);
  store_.unavailable = true;
  v1::RateGameResponse response;
  EXPECT_EQ(ratings_.RateGame(requests_.at("g"), &response).error_code(), grpc::StatusCode::UNAVAILABLE);
  v1::GetLeaderboardRequest request;
  request.set_ladder("open");
  v1::Leaderboard board;
  EXPECT_EQ(ratings_.GetLeaderboard(request, &board).error_code(), grpc::StatusCode::UNAVAILABLE);
  store_.unavailable = false;
  ExpectNothingWritten();
  EXPECT_TRUE(cache_.Entries({"open", 1, 0, {}}).empty());
  EXPECT_TRUE(Rate("g").rated());
}

TEST_F(RatingsLogicTest, TheServiceRefusesUnauthorisedAndMalformedRequests) {
  AddLadder("open", 0);
  const auto p = AddPlayers(3);
  AddGame("g", "open", 1, 0, {10, 5, 4}, p);
  auth::testing::FakeAccountLookup lookup;
  const std::string reader = lookup.Issue({.identity_id = p[0], .name = "player0", .kind = "player"});
  auth::TokenAuthenticator auth(&lookup, {{kServiceToken, "gamehost"}});
  RatingsService service(&ratings_, &auth);
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service);
  auto server = builder.BuildAndStart();
  ASSERT_NE(port, 0);
  auto stub = v1::Ratings::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  auto call = [&](const std::string& token, auto method, const auto& request, auto* response) {
    grpc::ClientContext context;
    if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
    return ((*stub).*method)(&context, request, response);
  };
  const v1::RateGameRequest rate = requests_.at("g");
  v1::RateGameResponse rated;
  EXPECT_EQ(call("", &v1::Ratings::Stub::RateGame, rate, &rated).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(call("forged", &v1::Ratings::Stub::RateGame, rate, &rated).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(call(reader, &v1::Ratings::Stub::RateGame, rate, &rated).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(store_.RatedGames(), 0u);
  ASSERT_TRUE(call(kServiceToken, &v1::Ratings::Stub::RateGame, rate, &rated).ok());
  EXPECT_TRUE(rated.rated());

  v1::GetLeaderboardRequest board;
  v1::Leaderboard lb;
  EXPECT_EQ(call(reader, &v1::Ratings::Stub::GetLeaderboard, board, &lb).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);  // no ladder
  board.set_ladder("nope");
  grpc::Status s = call(reader, &v1::Ratings::Stub::GetLeaderboard, board, &lb);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(s.error_message(), "ladder 'nope' does not exist");
  board.set_ladder("open");
  board.set_season(7);
  EXPECT_EQ(call(reader, &v1::Ratings::Stub::GetLeaderboard, board, &lb).error_message(),
            "ladder 'open' has no season 7");
  board.set_season(0);
  board.set_limit(501);
  EXPECT_EQ(call(reader, &v1::Ratings::Stub::GetLeaderboard, board, &lb).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  board.set_limit(10);
  ASSERT_TRUE(call(reader, &v1::Ratings::Stub::GetLeaderboard, board, &lb).ok());
  EXPECT_EQ(lb.total(), 3u);

  v1::GetPlayerRatingRequest who;
  who.set_ladder("open");
  who.set_identity_id(999999);
  v1::PlayerRating rating;
  EXPECT_EQ(call(reader, &v1::Ratings::Stub::GetPlayerRating, who, &rating).error_code(), grpc::StatusCode::NOT_FOUND);
  v1::GetRatingHistoryRequest history;
  history.set_ladder("open");
  history.set_identity_id(p[0]);
  v1::RatingHistory h;
  for (const char* bad : {"x1", "0", "-5", "12x"}) {
    history.set_page_token(bad);
    s = call(reader, &v1::Ratings::Stub::GetRatingHistory, history, &h);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << bad;
    EXPECT_EQ(s.error_message(), "page_token: not a token this service issued") << bad;
  }
  history.clear_page_token();
  history.set_limit(501);
  EXPECT_EQ(call(reader, &v1::Ratings::Stub::GetRatingHistory, history, &h).error_message(), "limit: at most 500");
  server->Shutdown();
}

// ratings.proto: a result is rated only once Replays confirms its digest.
TEST_F(RatingsLogicTest, AResultWhoseDigestReplaysDoesNotConfirmIsNotRated) {
  AddLadder("open", 0);
  const auto p = AddPlayers(3);
  AddGame("g", "open", 1, 0, {10, 7, 6}, p);
  v1::RateGameRequest forged = requests_.at("g");
  forged.set_digest(testing::DigestOf("g", '1'));
  const uint64_t unconfirmed = RatingsMetrics::Get().unconfirmed_digests();
  v1::RateGameResponse response;
  const grpc::Status s = ratings_.RateGame(forged, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "digest: replays holds game g with another digest; the result is not rated");
  EXPECT_EQ(RatingsMetrics::Get().unconfirmed_digests(), unconfirmed + 1);
  ExpectNothingWritten();
  EXPECT_TRUE(Rate("g").rated());
  EXPECT_EQ(store_.HistoryRows(), 3u);
}

// A peer unreachable (Replays: the digest; Accounts: the ladder): a retryable
// error and nothing written; the same result is rated once it answers.
TEST_F(RatingsLogicTest, PeersUnavailableAreRetryableAndWriteNothing) {
  AddLadder("open", 0);
  const auto p = AddPlayers(3);
  AddGame("g", "open", 1, 0, {10, 7, 6}, p);
  v1::RateGameResponse response;
  replays_.unavailable = true;
  grpc::Status s = ratings_.RateGame(requests_.at("g"), &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE) << s.error_message();
  replays_.unavailable = false;
  accounts_.unavailable = true;
  s = ratings_.RateGame(requests_.at("g"), &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE) << s.error_message();
  ExpectNothingWritten();
  accounts_.unavailable = false;
  EXPECT_TRUE(Rate("g").rated());
}

// A second, different result for a decided game is ALREADY_EXISTS, counted, and
// changes nothing, also while the peers are down; the same result again is
// answered as the first time. With the negative control "one_result" the
// different results are answered as the first: this test fails, as it must.
TEST_F(RatingsLogicTest, ADifferentSecondResultIsRefusedAndTheSameOneIsIdempotent) {
  AddLadder("open", 0);
  const auto p = AddPlayers(3);
  AddGame("g", "open", 1, 0, {10, 7, 6}, p);
  AddGame("capped", "open", 1, -1, {8, 7, 6}, p);
  const v1::RateGameResponse first = Rate("g");
  ASSERT_TRUE(first.rated());
  ASSERT_FALSE(Rate("capped").rated());
  const uint64_t conflicts = RatingsMetrics::Get().conflicting_results();

  v1::RateGameRequest other_places = requests_.at("g");
  other_places.mutable_outcome()->mutable_result()->set_winner(1);
  other_places.mutable_outcome()->mutable_result()->set_vp(1, 10);
  other_places.mutable_outcome()->mutable_result()->set_vp(0, 7);
  v1::RateGameRequest other_digest = requests_.at("g");
  other_digest.set_digest(testing::DigestOf("g", '2'));
  replays_.Store("g", other_digest.digest());
  v1::RateGameRequest other_seats = requests_.at("capped");
  other_seats.mutable_outcome()->mutable_seats(2)->set_identity_id(p[0] + 1000);
  for (const v1::RateGameRequest& r : {other_places, other_digest, other_seats}) {
    v1::RateGameResponse response;
    const grpc::Status s = ratings_.RateGame(r, &response);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::ALREADY_EXISTS) << r.game_id();
    EXPECT_EQ(s.error_message(), "game " + r.game_id() +
                                     " was rated from a different result (another digest or other places); "
                                     "nothing changed");
  }
  EXPECT_EQ(RatingsMetrics::Get().conflicting_results(), conflicts + 3);
  EXPECT_EQ(store_.HistoryRows(), 3u);
  for (int64_t id : p) EXPECT_EQ(GamesOf(id), 1);

  auto answered_as_first = [&](const v1::RateGameResponse& again) {
    EXPECT_TRUE(again.already_rated());
    EXPECT_TRUE(again.rated());
    ASSERT_EQ(again.changes_size(), 3);
    for (int s = 0; s < 3; ++s) {
      EXPECT_EQ(again.changes(s).seat(), uint32_t(s));
      EXPECT_EQ(again.changes(s).rank(), first.changes(s).rank());
      EXPECT_DOUBLE_EQ(again.changes(s).mu_after(), first.changes(s).mu_after());
    }
  };
  answered_as_first(Rate("g"));  // Replays now holds another digest for g
  replays_.Store("g", requests_.at("g").digest());
  answered_as_first(Rate("g"));  // confirmed: the store's claim answers
  replays_.unavailable = true;
  accounts_.unavailable = true;
  answered_as_first(Rate("g"));
  v1::RateGameResponse response;
  EXPECT_EQ(ratings_.RateGame(other_places, &response).error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(RatingsMetrics::Get().conflicting_results(), conflicts + 4);
  EXPECT_EQ(store_.HistoryRows(), 3u);
}

// Malformed results are refused before anyone is asked.
TEST_F(RatingsLogicTest, MalformedResultsAreRefusedPrecisely) {
  AddLadder("open", 0);
  const auto p = AddPlayers(3);
  AddGame("g", "open", 1, 0, {10, 7, 6}, p);
  auto refused = [&](v1::RateGameRequest r, const std::string& message) {
    v1::RateGameResponse response;
    const grpc::Status s = ratings_.RateGame(r, &response);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << message;
    EXPECT_EQ(s.error_message(), message);
  };
  v1::RateGameRequest r = requests_.at("g");
  r.set_digest("ABC");
  refused(r, "digest: 64 lower-case hex digits (StoreGameResponse.digest)");
  r = requests_.at("g");
  r.mutable_outcome()->mutable_result()->add_vp(3);
  refused(r, "outcome.result.vp: one per seat");
  r = requests_.at("g");
  r.mutable_outcome()->mutable_result()->set_winner(3);
  refused(r, "outcome.result.winner: a seat or -1");
  r = requests_.at("g");
  r.mutable_outcome()->clear_seats();
  refused(r, "outcome.seats: 2 to 4 seats");
  EXPECT_EQ(replays_.calls, 0);
  ExpectNothingWritten();
}

// Leaderboards name their players from Accounts (the ratings keep no names).
TEST_F(RatingsLogicTest, LeaderboardNamesComeFromAccounts) {
  AddLadder("open", 0);
  const auto p = AddPlayers(3);
  AddGame("g", "open", 1, 0, {10, 7, 6}, p);
  ASSERT_TRUE(Rate("g").rated());
  const v1::Leaderboard board = Top("open");
  ASSERT_EQ(board.entries_size(), 3);
  EXPECT_EQ(board.entries(0).identity_id(), p[0]);
  EXPECT_EQ(board.entries(0).name(), "player0");
  EXPECT_GE(accounts_.name_calls.load(), 1);
}

// Leaderboard versions (project issue #14), over the fakes: each scenario once
// with the comparison and once without it (the negative control, protection
// "board_versions"), which must then serve a board the store does not hold.
class BoardVersionsLogicTest : public RatingsLogicTest {
 protected:
  // Three players play game a (read: the board is built), then game b through a
  // replica whose cache is unreachable: its write is lost. What a reader shows.
  std::map<int64_t, int> AfterAWriteAnotherReplicaLost(bool compare) {
    Play();
    Ratings reader(&store_, &cache_, &replays_, &accounts_, {.compare_versions = compare});
    EXPECT_TRUE(Rate("a").rated());
    EXPECT_EQ(Shown(reader).size(), 3u);
    testing::FakeLeaderboardCache dead;
    dead.unavailable = true;
    Ratings writer(&store_, &dead, &replays_, &accounts_);
    EXPECT_TRUE(Rate("b", &writer).rated());
    return Shown(reader);
  }
  // Game a is rated and read; the cache then drops game b's write (a Redis that
  // lost its last second). What the next read shows.
  std::map<int64_t, int> AfterTheCacheLostItsLastWrite(bool compare) {
    Play();
    Ratings reader(&store_, &cache_, &replays_, &accounts_, {.compare_versions = compare});
    EXPECT_TRUE(Rate("a").rated());
    EXPECT_EQ(Shown(reader).size(), 3u);
    cache_.lose_writes = 1;
    EXPECT_TRUE(Rate("b").rated());
    return Shown(reader);
  }
  // Games a and b are rated and read; then the store is restored from a backup
  // taken after game a: the cache holds a board ahead of it.
  std::map<int64_t, int> AfterTheStoreWentBack(bool compare) {
    Play();
    Ratings reader(&store_, &cache_, &replays_, &accounts_, {.compare_versions = compare});
    EXPECT_TRUE(Rate("a").rated());
    const testing::FakeRatingStore::State backup = store_.Save();
    EXPECT_TRUE(Rate("b").rated());
    EXPECT_EQ(Shown(reader), InStore());
    store_.Restore(backup);
    return Shown(reader);
  }

 private:
  void Play() {
    AddLadder("open", 0);
    const auto p = AddPlayers(3);
    AddGame("a", "open", 1, 0, {10, 5, 4}, p);
    AddGame("b", "open", 1, 1, {5, 10, 4}, p);
  }
};

TEST_F(BoardVersionsLogicTest, AWriteOneReplicaLostIsReadFreshThroughAnother) {
  const auto shown = AfterAWriteAnotherReplicaLost(true);
  EXPECT_EQ(shown, InStore());
  for (const auto& [id, games] : shown) EXPECT_EQ(games, 2) << id;
}

TEST_F(BoardVersionsLogicTest, NegativeControlWithoutVersionsTheOtherReplicaServesTheBoardWithoutTheWrite) {
  const auto shown = AfterAWriteAnotherReplicaLost(false);
  EXPECT_NE(shown, InStore());
  for (const auto& [id, games] : shown) EXPECT_EQ(games, 1) << id;
}

TEST_F(BoardVersionsLogicTest, ALastWriteTheCacheLostIsRebuiltOnTheNextRead) {
  const auto shown = AfterTheCacheLostItsLastWrite(true);
  EXPECT_EQ(shown, InStore());
  for (const auto& [id, games] : shown) EXPECT_EQ(games, 2) << id;
}

TEST_F(BoardVersionsLogicTest, NegativeControlWithoutVersionsTheLostWriteIsServed) {
  const auto shown = AfterTheCacheLostItsLastWrite(false);
  EXPECT_NE(shown, InStore());
  for (const auto& [id, games] : shown) EXPECT_EQ(games, 1) << id;
}

TEST_F(BoardVersionsLogicTest, ABoardAheadOfARestoredStoreIsRebuiltFromIt) {
  const auto shown = AfterTheStoreWentBack(true);
  EXPECT_EQ(shown, InStore());
  for (const auto& [id, games] : shown) EXPECT_EQ(games, 1) << id;
  EXPECT_EQ(cache_.Version({"open", 1, 0, {}}), 1);
}

TEST_F(BoardVersionsLogicTest, NegativeControlWithoutVersionsTheBoardAheadIsServed) {
  const auto shown = AfterTheStoreWentBack(false);
  EXPECT_NE(shown, InStore());
  for (const auto& [id, games] : shown) EXPECT_EQ(games, 2) << id;
}

// A replica whose cache refuses writes: its ratings are kept (the refusals
// counted), its reads of a stale board come from the store, and a replica
// whose cache takes writes rebuilds the board.
TEST_F(BoardVersionsLogicTest, AReplicaWhoseCacheRefusesWritesRatesAndReadsFromTheStore) {
  AddLadder("open", 0);
  const auto p = AddPlayers(4);
  AddGame("a", "open", 1, 0, {10, 5, 4}, {p[0], p[1], p[2]});
  AddGame("b", "open", 1, 1, {5, 10, 4}, {p[0], p[1], p[3]});
  ASSERT_TRUE(Rate("a").rated());
  EXPECT_EQ(Shown(ratings_), InStore());

  // The same cache, seen through a user that may only read it.
  cache_.refuse_writes = true;
  const uint64_t refused = RatingsMetrics::Get().leaderboard_writes_refused();
  const uint64_t from_store = RatingsMetrics::Get().leaderboard_reads_from_postgres();
  EXPECT_TRUE(Rate("b").rated());
  EXPECT_EQ(RatingsMetrics::Get().leaderboard_writes_refused(), refused + 1);
  EXPECT_EQ(Shown(ratings_), InStore());  // its rebuild is refused too
  EXPECT_GE(RatingsMetrics::Get().leaderboard_reads_from_postgres(), from_store + 1);
  cache_.refuse_writes = false;
  EXPECT_EQ(Shown(ratings_), InStore());  // rebuilt
  const uint64_t served = RatingsMetrics::Get().leaderboard_reads_from_postgres();
  EXPECT_EQ(Shown(ratings_), InStore());
  EXPECT_EQ(RatingsMetrics::Get().leaderboard_reads_from_postgres(), served);  // from the cache again
}

// The fake cache keeps the version rule the Redis script keeps (the same
// sequence runs against Redis in ratings_pg_redis_test.cc).
TEST_F(BoardVersionsLogicTest, TheVersionMovesOnlyOverConsecutiveWrites) {
  const Board board{"open", 1, 0, {}};
  const std::vector<StoredRating> one = {{7, 25.0, 8.0, 1}};
  cache_.MarkBuilt(board, 4);
  EXPECT_EQ(cache_.Version(board), 4);
  cache_.Apply(board, one, 6);
  cache_.Apply(board, one, 7);
  EXPECT_EQ(cache_.Version(board), 4);  // 5 is missing
  cache_.Apply(board, one, 5);
  EXPECT_EQ(cache_.Version(board), 7);
  cache_.Apply(board, one, 3);  // old: changes nothing
  EXPECT_EQ(cache_.Version(board), 7);
  cache_.Apply(board, one, 9);
  EXPECT_EQ(cache_.Version(board), 7);  // 8 never arrives: a read rebuilds
  cache_.MarkBuilt(board, 8);           // a rebuild that read version 8
  EXPECT_EQ(cache_.Version(board), 9);  // and 9 had arrived already
}

// rate.h's small rules.
TEST(RateRulesTest, ThePageAroundAPlayerIsCentredAndKeptWithinTheBoard) {
  EXPECT_EQ(AroundStart(5, 4, 20), 3u);
  EXPECT_EQ(AroundStart(1, 4, 20), 0u);    // near the top
  EXPECT_EQ(AroundStart(19, 4, 20), 16u);  // near the bottom
  EXPECT_EQ(AroundStart(2, 10, 4), 0u);    // a page larger than the board
  EXPECT_EQ(AroundStart(0, 0, 4), 0u);
}

TEST(RateRulesTest, AHistoryPageIsReadOrRefusedPrecisely) {
  HistoryPage page;
  ASSERT_TRUE(ReadHistoryPage(0, "", &page).ok());
  EXPECT_EQ(page.limit, 50u);
  EXPECT_EQ(page.before_id, INT64_MAX);
  ASSERT_TRUE(ReadHistoryPage(500, "42", &page).ok());
  EXPECT_EQ(page.limit, 500u);
  EXPECT_EQ(page.before_id, 42);
  EXPECT_EQ(ReadHistoryPage(501, "", &page).error_message(), "limit: at most 500");
  for (const char* bad : {"x", "0", "-1", "4 2", "99999999999999999999"})
    EXPECT_EQ(ReadHistoryPage(10, bad, &page).error_message(), "page_token: not a token this service issued") << bad;
}

}  // namespace
}  // namespace metropolis::ratings
