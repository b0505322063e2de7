// What the ratings' tests share over whichever stores a fixture builds (the
// fakes in ratings_test.cc, PostgreSQL and Redis in ratings_pg_redis_test.cc):
// the peers' fakes (tests/fakes.h), the results they rate, the calls that rate
// and read them, and what the contract's cases (tests/ratings_contract.h) ask of
// the stores underneath.
#pragma once

#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "services/ratings/metrics.h"
#include "services/ratings/ratings.h"
#include "services/ratings/tests/fakes.h"

namespace metropolis::ratings::testing {

class RatingsFixture : public ::testing::Test {
 protected:
  // The service over the fixture's stores, and those stores.
  virtual Ratings& ratings() = 0;
  virtual RatingStore& store() = 0;
  virtual LeaderboardCache& cache() = 0;
  // A cache as unreachable as a Redis that is down; it lives as long as the fixture.
  virtual LeaderboardCache* UnreachableCache() = 0;
  // The cache loses every board (a Redis that lost its data).
  virtual void LoseTheCache() = 0;
  // What the store holds: decided games, history rows, a player's games on a
  // ladder's first season, and identity -> games of a ladder's players.
  virtual int64_t RatedGames() = 0;
  virtual int64_t HistoryRows() = 0;
  virtual int GamesOf(int64_t identity, const std::string& ladder = "open") = 0;
  virtual std::map<int64_t, int> InStore(const std::string& ladder = "open") = 0;
  // (μ − 3σ, identity) of the players of `ladder` with at least `games` games,
  // highest first, straight from the store's ratings.
  virtual std::vector<std::pair<double, int64_t>> Ordinals(const std::string& ladder, int games) = 0;

  // A ladder with season 1: where the stores need it, and in Accounts.
  void AddLadder(const std::string& id, int placement_games) {
    StoreLadder(id, placement_games);
    LadderInfo info;
    info.placement_games = placement_games;
    info.latest_season = 1;
    accounts_.AddLadder(id, info);
  }
  // `n` new players, named player0, player1, ... in Accounts.
  std::vector<int64_t> AddPlayers(int n) {
    std::vector<int64_t> ids;
    for (int i = 0; i < n; ++i) {
      const std::string name = "player" + std::to_string(next_player_++);
      ids.push_back(NewIdentity(name));
      accounts_.AddName(ids.back(), name);
    }
    return ids;
  }
  // A game Replays holds (with its digest), and its result.
  void AddGame(const std::string& id, const std::string& ladder, int season, int winner, const std::vector<int>& vp,
               const std::vector<int64_t>& identities, const std::vector<bool>& forfeited = {}) {
    requests_[id] = Result(id, ladder, season, winner, vp, identities, forfeited);
    replays_.Store(id, requests_[id].digest());
  }
  v1::RateGameResponse Rate(const std::string& game_id, Ratings* through = nullptr) {
    v1::RateGameResponse response;
    const grpc::Status s = (through ? through : &ratings())->RateGame(requests_.at(game_id), &response);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return response;
  }
  v1::Leaderboard Top(const std::string& ladder, Ratings* through = nullptr) {
    v1::GetLeaderboardRequest request;
    request.set_ladder(ladder);
    request.set_limit(50);
    v1::Leaderboard board;
    const grpc::Status s = (through ? through : &ratings())->GetLeaderboard(request, &board);
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
  // Counted on the test's own registry: a count a case reads is its own.
  prometheus::Registry registry_;
  RatingsMetrics metrics_{&registry_};
  FakeStoredGames replays_;
  FakeLadders accounts_;
  std::map<std::string, v1::RateGameRequest> requests_;

 private:
  // The ladder's rows, where the stores keep them (PostgreSQL does).
  virtual void StoreLadder(const std::string& /*id*/, int /*placement_games*/) {}
  // A new identity's id, where the stores keep them (PostgreSQL does).
  virtual int64_t NewIdentity(const std::string& name) = 0;

  int next_player_ = 0;
};

}  // namespace metropolis::ratings::testing
