// The ratings logic over fakes of its stores and peers (tests/fake_stores.h,
// tests/fakes.h), with no server: exactly once per game, only results whose
// digest Replays confirms, a different second result refused, games that are
// not rated saying why, leaderboards ranked and named, the board versions that
// catch what the cache missed or holds ahead (each with its negative control),
// and bad requests refused with precise statuses. The cases the real stores are
// held to as well are in tests/ratings_contract.h; what only the real
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
#include "lib/common/tests/fake_clock.h"
#include "services/ratings/metrics.h"
#include "services/ratings/rate.h"
#include "services/ratings/service.h"
#include "services/ratings/tests/fake_stores.h"
#include "services/ratings/tests/fakes.h"
#include "services/ratings/tests/fixture.h"
#include "services/ratings/tests/ratings_contract.h"

namespace metropolis::ratings {
namespace {

constexpr char kServiceToken[] = "host-secret";

class RatingsLogicTest : public testing::RatingsFixture {
 protected:
  Ratings& ratings() override { return ratings_; }
  RatingStore& store() override { return store_; }
  LeaderboardCache& cache() override { return cache_; }
  LeaderboardCache* UnreachableCache() override {
    dead_cache_.unavailable = true;
    return &dead_cache_;
  }
  void LoseTheCache() override { cache_.Flush(); }
  int64_t RatedGames() override { return int64_t(store_.RatedGames()); }
  int64_t HistoryRows() override { return int64_t(store_.HistoryRows()); }
  int GamesOf(int64_t identity, const std::string& ladder = "open") override {
    const auto state = store_.Save();
    auto it = state.ratings.find({ladder, 1, identity});
    return it == state.ratings.end() ? 0 : it->second.games;
  }
  std::map<int64_t, int> InStore(const std::string& ladder = "open") override {
    std::map<int64_t, int> out;
    for (const auto& [key, rating] : store_.Save().ratings)
      if (std::get<0>(key) == ladder) out[rating.identity_id] = rating.games;
    return out;
  }
  // Straight from the definition: μ − 3σ, highest first.
  std::vector<std::pair<double, int64_t>> Ordinals(const std::string& ladder, int games) override {
    std::vector<std::pair<double, int64_t>> out;
    for (const auto& [key, r] : store_.Save().ratings)
      if (std::get<0>(key) == ladder && r.games >= games) out.push_back({r.mu - 3 * r.sigma, r.identity_id});
    std::sort(out.rbegin(), out.rend());
    return out;
  }
  void ExpectNothingWritten() {
    EXPECT_EQ(store_.RatedGames(), 0u);
    EXPECT_EQ(store_.Ratings(), 0u);
    EXPECT_EQ(store_.HistoryRows(), 0u);
  }

  testing::FakeRatingStore store_;
  testing::FakeLeaderboardCache cache_;
  Ratings ratings_{&store_, &cache_, &replays_, &accounts_, {.metrics = &metrics_}};

 private:
  int64_t NewIdentity(const std::string& /*name*/) override { return 100 + identities_++; }

  testing::FakeLeaderboardCache dead_cache_;
  int identities_ = 0;
};

// The cases the real stores are held to as well (tests/ratings_contract.h; in
// ratings_pg_redis_test.cc against PostgreSQL and Redis).
INSTANTIATE_TYPED_TEST_SUITE_P(Fakes, RatingsContract, RatingsLogicTest);

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

// A resigned game (END_REASON_RESIGNED) has no winner and is rated all the
// same: the resigning seat, forfeited, last; the others by their points. The
// same result without the resignation is not rated (no winner).
TEST_F(RatingsLogicTest, AResignedGameIsRatedWithTheResignerLast) {
  AddLadder("open", 0);
  const auto p = AddPlayers(3);
  AddGame("g", "open", 1, -1, {9, 11, 6}, {p[0], p[1], p[2]}, {false, true, false});
  requests_["g"].mutable_outcome()->mutable_result()->set_reason(v1::END_REASON_RESIGNED);
  requests_["g"].mutable_outcome()->mutable_result()->set_resigned_seat(1);
  const v1::RateGameResponse r = Rate("g");
  ASSERT_TRUE(r.rated()) << r.not_rated_reason();
  EXPECT_EQ(r.changes(0).rank(), 1u);
  EXPECT_EQ(r.changes(1).rank(), 3u);  // resigned, with the most points
  EXPECT_EQ(r.changes(2).rank(), 2u);
  EXPECT_EQ(store_.HistoryRows(), 3u);

  AddGame("h", "open", 1, -1, {9, 11, 6}, {p[0], p[1], p[2]}, {false, true, false});
  const v1::RateGameResponse unresigned = Rate("h");
  EXPECT_FALSE(unresigned.rated());
  EXPECT_EQ(unresigned.not_rated_reason(), "not rated: ended without a winner");
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
  const uint64_t unconfirmed = metrics_.unconfirmed_digests();
  v1::RateGameResponse response;
  const grpc::Status s = ratings_.RateGame(forged, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "digest: replays holds game g with another digest; the result is not rated");
  EXPECT_EQ(metrics_.unconfirmed_digests(), unconfirmed + 1);
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

// Accounts down after a ladder was read: its leaderboard stays readable from
// the ladder last read, however old (the reads' staleness), while rating a game
// still needs Accounts to answer (a season begun meanwhile must not be missed),
// a season the stale copy does not have is UNAVAILABLE (not NOT_FOUND: it may
// have begun since), and a ladder never read is UNAVAILABLE. Without the stale
// fallback the read a minute later fails like the ladder never read.
TEST_F(RatingsLogicTest, LeaderboardsStayReadableWhileAccountsIsDown) {
  services::testing::FakeClock clock;
  Ratings ratings(&store_, &cache_, &replays_, &accounts_, {.metrics = &metrics_, .clock = &clock});
  AddLadder("open", 0);
  AddLadder("quiet", 0);
  const auto p = AddPlayers(3);
  AddGame("g1", "open", 1, 0, {10, 7, 6}, p);
  AddGame("g2", "open", 1, 1, {7, 10, 6}, p);
  Rate("g1", &ratings);
  ASSERT_EQ(Top("open", &ratings).entries_size(), 3);

  accounts_.unavailable = true;
  clock.Advance(60'000);  // far past the few seconds a ladder is reused
  const v1::Leaderboard board = Top("open", &ratings);
  EXPECT_EQ(board.entries_size(), 3);
  v1::RateGameResponse response;
  EXPECT_EQ(ratings.RateGame(requests_.at("g2"), &response).error_code(), grpc::StatusCode::UNAVAILABLE);
  v1::GetLeaderboardRequest next_season;
  next_season.set_ladder("open");
  next_season.set_season(2);
  v1::Leaderboard none;
  const grpc::Status later = ratings.GetLeaderboard(next_season, &none);
  EXPECT_EQ(later.error_code(), grpc::StatusCode::UNAVAILABLE) << later.error_message();
  v1::GetLeaderboardRequest never_read;
  never_read.set_ladder("quiet");
  v1::Leaderboard empty;
  const grpc::Status s = ratings.GetLeaderboard(never_read, &empty);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE) << s.error_message();

  accounts_.unavailable = false;
  EXPECT_TRUE(Rate("g2", &ratings).rated());
  // A ladder Accounts no longer knows is not served from what was read before.
  accounts_.RemoveLadder("open");
  clock.Advance(60'000);
  v1::GetLeaderboardRequest gone;
  gone.set_ladder("open");
  EXPECT_EQ(ratings.GetLeaderboard(gone, &empty).error_code(), grpc::StatusCode::NOT_FOUND);
  accounts_.unavailable = true;
  EXPECT_EQ(ratings.GetLeaderboard(gone, &empty).error_code(), grpc::StatusCode::UNAVAILABLE);
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
  // Game a is rated and read; the cache then drops game b's write (a Redis that
  // lost its last second). What the next read shows.
  std::map<int64_t, int> AfterTheCacheLostItsLastWrite(bool compare) {
    Play();
    Ratings reader(&store_, &cache_, &replays_, &accounts_, {.compare_versions = compare, .metrics = &metrics_});
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
    Ratings reader(&store_, &cache_, &replays_, &accounts_, {.compare_versions = compare, .metrics = &metrics_});
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
  int64_t version = -2;
  ASSERT_TRUE(cache_.Version({"open", 1, 0, {}}, &version).ok());
  EXPECT_EQ(version, 1);
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
  const uint64_t refused = metrics_.leaderboard_writes_refused();
  const uint64_t from_store = metrics_.leaderboard_reads_from_postgres();
  EXPECT_TRUE(Rate("b").rated());
  EXPECT_EQ(metrics_.leaderboard_writes_refused(), refused + 1);
  EXPECT_EQ(Shown(ratings_), InStore());  // its rebuild is refused too
  EXPECT_GE(metrics_.leaderboard_reads_from_postgres(), from_store + 1);
  cache_.refuse_writes = false;
  EXPECT_EQ(Shown(ratings_), InStore());  // rebuilt
  const uint64_t served = metrics_.leaderboard_reads_from_postgres();
  EXPECT_EQ(Shown(ratings_), InStore());
  EXPECT_EQ(metrics_.leaderboard_reads_from_postgres(), served);  // from the cache again
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
