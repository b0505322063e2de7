// The ratings' cases that hold over the stores' fakes and over PostgreSQL and
// Redis alike, written once: instantiated over the fakes in ratings_test.cc
// (ratings_unit_tests) and over the real stores in ratings_pg_redis_test.cc
// (ratings_tests), where they show what only those can: the decision, the
// history's pages and the boards read back from PostgreSQL's rows, and the
// leaderboard script's versions, its boards rebuilt and its provisional players
// kept apart in Redis. Each instantiates RatingsContract with a fixture derived
// from testing::RatingsFixture (tests/fixture.h). Ranking rule: docs/RATINGS.md.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "services/ratings/metrics.h"
#include "services/ratings/tests/fixture.h"

namespace metropolis::ratings {

template <typename Fixture>
class RatingsContract : public Fixture {
 protected:
  // Three players play game a (read: the board is built), then game b through
  // a replica whose cache is unreachable: its write is lost. What a reader that
  // compares the board's versions (or, the negative control "board_versions",
  // does not) shows.
  std::map<int64_t, int> AfterAWriteAnotherReplicaLost(bool compare) {
    this->AddLadder("open", 0);
    const auto p = this->AddPlayers(3);
    this->AddGame("a", "open", 1, 0, {10, 5, 4}, p);
    this->AddGame("b", "open", 1, 1, {5, 10, 4}, p);
    Ratings reader(&this->store(), &this->cache(), &this->replays_, &this->accounts_,
                   {.compare_versions = compare, .metrics = &this->metrics_});
    EXPECT_TRUE(this->Rate("a").rated());
    EXPECT_EQ(this->Shown(reader).size(), 3u);
    Ratings writer(&this->store(), this->UnreachableCache(), &this->replays_, &this->accounts_,
                   {.metrics = &this->metrics_});
    EXPECT_TRUE(this->Rate("b", &writer).rated());
    return this->Shown(reader);
  }
};

TYPED_TEST_SUITE_P(RatingsContract);

// Leaderboards: by ordinal, provisional players apart; ranks, the page around
// a player and the history's pages agree with the store's ratings.
TYPED_TEST_P(RatingsContract, LeaderboardsRankByOrdinalAndKeepPlacementPlayersApart) {
  Ratings& ratings = this->ratings();
  this->AddLadder("ranked", 2);
  const auto p = this->AddPlayers(6);
  // p[0..3] play two games each; p[4], p[5] one game: provisional.
  this->AddGame("l0", "ranked", 1, 0, {10, 8, 6, 4}, {p[0], p[1], p[2], p[3]});
  this->AddGame("l1", "ranked", 1, 1, {7, 10, 6, 4}, {p[0], p[1], p[2], p[3]});
  this->AddGame("l2", "ranked", 1, 0, {10, 8, 7}, {p[4], p[5], 0});
  for (const char* g : {"l0", "l1", "l2"}) ASSERT_TRUE(this->Rate(g).rated());

  const v1::Leaderboard board = this->Top("ranked");
  ASSERT_EQ(board.total(), 4u);
  ASSERT_EQ(board.entries_size(), 4);
  const auto expected = this->Ordinals("ranked", 2);
  ASSERT_EQ(expected.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(board.entries(i).rank(), uint64_t(i + 1));
    EXPECT_EQ(board.entries(i).identity_id(), expected[size_t(i)].second);
    EXPECT_DOUBLE_EQ(board.entries(i).ordinal(), expected[size_t(i)].first);
    EXPECT_FALSE(board.entries(i).name().empty());
    EXPECT_EQ(board.entries(i).games(), 2u);
  }

  v1::GetPlayerRatingRequest who;
  who.set_ladder("ranked");
  who.set_identity_id(board.entries(2).identity_id());
  v1::PlayerRating rating;
  ASSERT_TRUE(ratings.GetPlayerRating(who, &rating).ok());
  EXPECT_EQ(rating.rank(), 3u);
  EXPECT_EQ(rating.total(), 4u);
  EXPECT_FALSE(rating.provisional());
  who.set_identity_id(p[4]);
  ASSERT_TRUE(ratings.GetPlayerRating(who, &rating).ok());
  EXPECT_TRUE(rating.provisional());
  EXPECT_EQ(rating.rank(), 0u);
  EXPECT_EQ(rating.games(), 1u);

  v1::GetLeaderboardRequest around;
  around.set_ladder("ranked");
  around.set_limit(2);
  around.set_around_identity_id(board.entries(3).identity_id());
  v1::Leaderboard page;
  ASSERT_TRUE(ratings.GetLeaderboard(around, &page).ok());
  ASSERT_EQ(page.entries_size(), 2);
  EXPECT_EQ(page.entries(0).rank(), 3u);
  EXPECT_EQ(page.entries(1).identity_id(), board.entries(3).identity_id());

  v1::GetRatingHistoryRequest history;
  history.set_ladder("ranked");
  history.set_identity_id(p[0]);
  history.set_limit(1);
  v1::RatingHistory h;
  ASSERT_TRUE(ratings.GetRatingHistory(history, &h).ok());
  ASSERT_EQ(h.entries_size(), 1);
  EXPECT_EQ(h.entries(0).game_id(), "l1");
  // The history carries the leaderboard's key, so that no reader computes it again.
  EXPECT_DOUBLE_EQ(h.entries(0).ordinal_after(), h.entries(0).mu_after() - 3 * h.entries(0).sigma_after());
  EXPECT_NE(h.entries(0).ordinal_after(), 0);
  ASSERT_FALSE(h.next_page_token().empty());
  history.set_page_token(h.next_page_token());
  v1::RatingHistory older;
  ASSERT_TRUE(ratings.GetRatingHistory(history, &older).ok());
  ASSERT_EQ(older.entries_size(), 1);
  EXPECT_EQ(older.entries(0).game_id(), "l0");
  EXPECT_DOUBLE_EQ(older.entries(0).mu_after(), h.entries(0).mu_before());
  EXPECT_TRUE(older.next_page_token().empty());
}

// A cache that lost every board (a Redis that lost its data): the next read
// rebuilds the board from the store, as it was.
TYPED_TEST_P(RatingsContract, ALeaderboardTheCacheLostIsRebuiltFromTheStore) {
  this->AddLadder("open", 0);
  const auto p = this->AddPlayers(8);
  for (int g = 0; g < 10; ++g)
    this->AddGame("r" + std::to_string(g), "open", 1, g % 4, {10, 5 + g % 3, 4, 3},
                  {p[size_t(g % 8)], p[size_t((g + 1) % 8)], p[size_t((g + 2) % 8)], p[size_t((g + 5) % 8)]});
  for (int g = 0; g < 10; ++g) ASSERT_TRUE(this->Rate("r" + std::to_string(g)).rated());
  const v1::Leaderboard before = this->Top("open");
  ASSERT_EQ(before.total(), 8u);
  const uint64_t rebuilds = this->ratings().rebuilds();

  this->LoseTheCache();
  const v1::Leaderboard after = this->Top("open");
  EXPECT_EQ(this->ratings().rebuilds(), rebuilds + 1);
  ASSERT_EQ(after.entries_size(), before.entries_size());
  for (int i = 0; i < after.entries_size(); ++i) {
    EXPECT_EQ(after.entries(i).identity_id(), before.entries(i).identity_id());
    EXPECT_DOUBLE_EQ(after.entries(i).ordinal(), before.entries(i).ordinal());
  }
}

// The cache unreachable while a game is rated: the rating is kept anyway, reads
// say UNAVAILABLE, and a restarted replica rebuilds every board (the way a
// replica that crashed meanwhile repairs it).
TYPED_TEST_P(RatingsContract, AWriteTheCacheMissedIsRepairedByTheRebuild) {
  this->AddLadder("open", 0);
  const auto p = this->AddPlayers(3);
  this->AddGame("a", "open", 1, 0, {10, 5, 4}, p);
  this->AddGame("b", "open", 1, 1, {5, 10, 4}, p);
  ASSERT_TRUE(this->Rate("a").rated());
  ASSERT_EQ(this->Top("open").total(), 3u);

  Ratings cut_off(&this->store(), this->UnreachableCache(), &this->replays_, &this->accounts_,
                  {.metrics = &this->metrics_});
  EXPECT_TRUE(this->Rate("b", &cut_off).rated());
  v1::GetLeaderboardRequest request;
  request.set_ladder("open");
  v1::Leaderboard unused;
  EXPECT_EQ(cut_off.GetLeaderboard(request, &unused).error_code(), grpc::StatusCode::UNAVAILABLE);

  Ratings restarted(&this->store(), &this->cache(), &this->replays_, &this->accounts_, {.metrics = &this->metrics_});
  uint64_t players = 0;
  ASSERT_TRUE(restarted.RebuildAll(&players).ok());
  EXPECT_EQ(players, 3u);
  const v1::Leaderboard board = this->Top("open", &restarted);
  for (const auto& e : board.entries()) EXPECT_EQ(e.games(), 2u) << e.identity_id();
}

// A second, different result for a decided game (other places under the same
// digest, another digest, other seats) is ALREADY_EXISTS, counted, and changes
// nothing, also while Replays is down; the same result again is answered as the
// first time, also with Replays and Accounts down (the stored decision is read
// then). With the negative control "one_result" (METROPOLIS_REMOVE_PROTECTION=
// one_result in a check build) the different results are answered as the
// first: this test fails, as it must.
TYPED_TEST_P(RatingsContract, ADifferentSecondResultIsRefusedAndTheSameOneIsIdempotent) {
  Ratings& ratings = this->ratings();
  this->AddLadder("open", 0);
  const auto p = this->AddPlayers(3);
  this->AddGame("g", "open", 1, 0, {10, 7, 6}, p);
  this->AddGame("capped", "open", 1, -1, {8, 7, 6}, p);
  const v1::RateGameResponse first = this->Rate("g");
  ASSERT_TRUE(first.rated());
  ASSERT_FALSE(this->Rate("capped").rated());
  const uint64_t conflicts = this->metrics_.conflicting_results();

  v1::RateGameRequest other_places = this->requests_.at("g");
  other_places.mutable_outcome()->mutable_result()->set_winner(1);
  other_places.mutable_outcome()->mutable_result()->set_vp(1, 10);
  other_places.mutable_outcome()->mutable_result()->set_vp(0, 7);
  v1::RateGameRequest other_digest = this->requests_.at("g");
  other_digest.set_digest(testing::DigestOf("g", '2'));
  this->replays_.Store("g", other_digest.digest());  // even one Replays would confirm now
  v1::RateGameRequest other_seats = this->requests_.at("capped");
  other_seats.mutable_outcome()->mutable_seats(2)->set_identity_id(p[0] + 1000);
  for (const v1::RateGameRequest& r : {other_places, other_digest, other_seats}) {
    v1::RateGameResponse response;
    const grpc::Status s = ratings.RateGame(r, &response);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::ALREADY_EXISTS) << r.game_id();
    EXPECT_EQ(s.error_message(), "game " + r.game_id() +
                                     " was rated from a different result (another digest or other places); "
                                     "nothing changed");
  }
  EXPECT_EQ(this->metrics_.conflicting_results(), conflicts + 3);
  EXPECT_EQ(this->HistoryRows(), 3);
  for (int64_t id : p) EXPECT_EQ(this->GamesOf(id), 1);

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
  answered_as_first(this->Rate("g"));  // Replays now holds another digest for g
  this->replays_.Store("g", this->requests_.at("g").digest());
  answered_as_first(this->Rate("g"));  // confirmed: the store's claim answers
  this->replays_.unavailable = true;
  this->accounts_.unavailable = true;
  answered_as_first(this->Rate("g"));
  v1::RateGameResponse response;
  EXPECT_EQ(ratings.RateGame(other_places, &response).error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(this->metrics_.conflicting_results(), conflicts + 4);
  EXPECT_EQ(this->HistoryRows(), 3);
  for (int64_t id : p) EXPECT_EQ(this->GamesOf(id), 1);
}

// Leaderboard versions (project issue #14): every read compares the version
// the cached board reflects with the store's and rebuilds the board on any
// difference, so a write one replica's cache missed is read fresh through
// another; without the comparison that replica serves the board without it.
TYPED_TEST_P(RatingsContract, AWriteOneReplicaLostIsReadFreshThroughAnother) {
  const auto shown = this->AfterAWriteAnotherReplicaLost(true);
  EXPECT_EQ(shown, this->InStore());
  for (const auto& [id, games] : shown) EXPECT_EQ(games, 2) << id;
}

TYPED_TEST_P(RatingsContract, NegativeControlWithoutVersionsTheOtherReplicaServesTheBoardWithoutTheWrite) {
  const auto shown = this->AfterAWriteAnotherReplicaLost(false);
  EXPECT_NE(shown, this->InStore());
  for (const auto& [id, games] : shown) EXPECT_EQ(games, 1) << id;
}

// Writes that arrive out of order (two replicas rating games of one board at
// once) move the board's version only once every earlier one arrived; a write
// that never arrives holds it back.
TYPED_TEST_P(RatingsContract, TheVersionMovesOnlyOverConsecutiveWrites) {
  LeaderboardCache& cache = this->cache();
  const Board board{"open", 1, 0, {}};
  const std::vector<StoredRating> one = {{7, 25.0, 8.0, 1}};
  auto version = [&] {
    int64_t v = -2;
    EXPECT_TRUE(cache.Version(board, &v).ok());
    return v;
  };
  auto apply = [&](int64_t v) { EXPECT_TRUE(cache.Apply(board, one, v).ok()); };
  ASSERT_TRUE(cache.MarkBuilt(board, 4).ok());
  EXPECT_EQ(version(), 4);
  apply(6);
  apply(7);
  EXPECT_EQ(version(), 4);  // 5 is missing
  apply(5);
  EXPECT_EQ(version(), 7);
  apply(3);  // old: changes nothing
  EXPECT_EQ(version(), 7);
  apply(9);
  EXPECT_EQ(version(), 7);                      // 8 never arrives: a read rebuilds
  ASSERT_TRUE(cache.MarkBuilt(board, 8).ok());  // a rebuild that read version 8
  EXPECT_EQ(version(), 9);                      // and 9 had arrived already
}

// A cache that cannot be reached answers every call with UNAVAILABLE, the
// status a caller retries, in the words the ratings logic passes on ("leaderboard
// cache unavailable: ..."): not OK, and no exception.
TYPED_TEST_P(RatingsContract, EveryCallToAnUnreachableCacheAnswersUnavailable) {
  LeaderboardCache* cache = this->UnreachableCache();
  const Board board{"open", 1, 0, {}};
  std::vector<RankedEntry> page;
  RankedEntry entry;
  uint64_t total = 0;
  bool found = false;
  int64_t version = 0;
  const std::vector<std::pair<std::string, grpc::Status>> answers = {
      {"Apply", cache->Apply(board, {{7, 25.0, 8.0, 1}}, 1)},
      {"Clear", cache->Clear(board)},
      {"MarkBuilt", cache->MarkBuilt(board, 1)},
      {"Page", cache->Page(board, 0, 10, &page, &total, &version)},
      {"Around", cache->Around(board, 7, 10, &page, &total, &found, &version)},
      {"Lookup", cache->Lookup(board, 7, &entry, &total, &found, &version)},
      {"Version", cache->Version(board, &version)}};
  for (const auto& [call, s] : answers) {
    EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE) << call << ": " << s.error_message();
    EXPECT_TRUE(s.error_message().starts_with("leaderboard cache unavailable: ")) << call << ": " << s.error_message();
  }
}

REGISTER_TYPED_TEST_SUITE_P(RatingsContract, LeaderboardsRankByOrdinalAndKeepPlacementPlayersApart,
                            ALeaderboardTheCacheLostIsRebuiltFromTheStore, AWriteTheCacheMissedIsRepairedByTheRebuild,
                            ADifferentSecondResultIsRefusedAndTheSameOneIsIdempotent,
                            AWriteOneReplicaLostIsReadFreshThroughAnother,
                            NegativeControlWithoutVersionsTheOtherReplicaServesTheBoardWithoutTheWrite,
                            TheVersionMovesOnlyOverConsecutiveWrites, EveryCallToAnUnreachableCacheAnswersUnavailable);

}  // namespace metropolis::ratings
