// What the matchmaker's Redis tests share: a ticket store on the Redis the test
// command starts, under a prefix of its own (deleted after), and one C&K ladder.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "lib/storage/tests/test_redis.h"
#include "services/matchmaker/matchmaker.h"
#include "services/matchmaker/redis_ticket_store.h"

namespace metropolis::matchmaker::testing {

// Options for tests that are not about heartbeats. A table is claimed only if
// each ticket beat within claim_fresh_ms by Redis's clock, and on a loaded
// machine a test's round may come later than that after it created its tickets.
inline MatchmakerOptions Unhurried(MatchmakerOptions options = {}) {
  options.claim_fresh_ms = 0;
  return options;
}

class TicketStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    address_ = storage::testing::RedisAddress();
    ASSERT_FALSE(address_.empty());
    prefix_ = storage::testing::UniquePrefix();
    redis_ = std::make_unique<storage::RedisPool>(address_, 8);
    tickets_ = std::make_unique<RedisTicketStore>(redis_.get(), prefix_, TicketClock::kCaller);
    ladder_.id = "open";
    ladder_.season = 1;
    ladder_.options = DefaultOptions(Ruleset::kCitiesAndKnights);
  }
  void TearDown() override {
    if (!address_.empty()) storage::testing::DeleteKeys(address_, prefix_);
  }

  std::string address_, prefix_;
  std::unique_ptr<storage::RedisPool> redis_;
  std::unique_ptr<RedisTicketStore> tickets_;
  LadderConfig ladder_;
};

}  // namespace metropolis::matchmaker::testing
