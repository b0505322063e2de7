// What the tournaments' tests share, over whichever stores a fixture builds (the
// fakes in tournaments_test.cc, PostgreSQL and Redis in
// tournaments_pg_redis_test.cc): eight entrants (identities 101 to 108, named
// bot0 to bot7 by the Accounts' fake), the peers' fakes, a game host with room,
// and the helpers that make tournaments and read them back.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "services/matchmaker/tournaments/runner.h"
#include "services/matchmaker/tournaments/schedule.h"
#include "services/matchmaker/tournaments/tests/fake_peers.h"

namespace metropolis::matchmaker::testing {

template <typename Store, typename Roster, typename Hosts>
class TournamentsFixture : public ::testing::Test {
 protected:
  static constexpr int64_t kNow = 1'000'000;

  TournamentsFixture() {
    for (int i = 0; i < 8; ++i) {
      identities_.push_back(101 + i);
      entrants_.names[101 + i] = "bot" + std::to_string(i);
    }
  }
  // Takes the stores the fixture built: the tests' runners lead the scheduling
  // (they hold the newest fence), and one game host has room.
  void Use(std::unique_ptr<Store> store, std::unique_ptr<Roster> roster, std::unique_ptr<Hosts> hosts) {
    store_ = std::move(store);
    roster_ = std::move(roster);
    hosts_ = std::move(hosts);
    int64_t fence = 0;
    ASSERT_TRUE(store_->TakeFence(&fence).ok());
    ASSERT_TRUE(hosts_->HostHeartbeat({"hostA:1", 1000, 0, kNow}).ok());
  }
  // The stores go before what the fixture built them on.
  void TearDown() override {
    hosts_.reset();
    roster_.reset();
    store_.reset();
  }

  TournamentSpec Spec(const std::string& id, TournamentFormat format, int entrants, int rounds = 1) {
    TournamentSpec spec;
    spec.id = id;
    spec.format = format;
    spec.rounds = rounds;
    spec.seed = 77;
    spec.entrants.assign(identities_.begin(), identities_.begin() + entrants);
    return spec;
  }
  void CreateTournament(const TournamentSpec& spec) {
    const auto games = InitialSchedule(spec.format, int(spec.entrants.size()), spec.seats, spec.rounds, spec.seed);
    const grpc::Status s = store_->Create(spec, games);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  void Available(const std::vector<int64_t>& who, int capacity = 4) {
    for (int64_t id : who) EXPECT_TRUE(roster_->Heartbeat(id, "c", capacity, kNow + 3'600'000).ok());
  }
  // The roster's answers, which these tests expect to be OK.
  std::unordered_map<int64_t, int> AvailableAt(int64_t now_ms) {
    std::unordered_map<int64_t, int> out;
    EXPECT_TRUE(roster_->Available(now_ms, &out).ok());
    return out;
  }
  std::unordered_map<int64_t, std::vector<RosterConnection>> ConnectionsAt(int64_t now_ms) {
    std::unordered_map<int64_t, std::vector<RosterConnection>> out;
    EXPECT_TRUE(roster_->Connections(now_ms, &out).ok());
    return out;
  }
  bool Leads(const std::string& replica, int64_t ttl_ms) {
    bool leading = false;
    EXPECT_TRUE(roster_->Lead(replica, ttl_ms, &leading).ok());
    return leading;
  }
  // A scheduler over the fixture's stores and peers.
  std::unique_ptr<TournamentRunner> Runner(RunnerOptions options = {}) {
    return std::make_unique<TournamentRunner>(store_.get(), &replays_, &entrants_, roster_.get(), hosts_.get(), &host_,
                                              options);
  }
  std::vector<TournamentGameRow> Games(const std::string& id) {
    std::vector<TournamentGameRow> games;
    EXPECT_TRUE(store_->Games(id, &games).ok());
    return games;
  }

  std::unique_ptr<Store> store_;
  std::unique_ptr<Roster> roster_;
  std::unique_ptr<Hosts> hosts_;
  std::vector<int64_t> identities_;
  FakeHost host_;
  FakeReplays replays_;
  FakeEntrants entrants_;
};

}  // namespace metropolis::matchmaker::testing
