// Friends' tables in the Redis the test command starts (redis_table_store.h):
// a new table is created once, expires after its ttl, and a change is written
// only over the value it was made from, so friends who take seats at once on
// any replicas never take one seat twice nor lose a join. With the swap's
// script switched off (negative control "table_swap") a stale write wins.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "lib/storage/tests/test_redis.h"
#include "services/matchmaker/tables/redis_table_store.h"
#include "services/matchmaker/tables/tables.h"

namespace metropolis::matchmaker::tables {
namespace {

class RedisTablesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    address_ = storage::testing::RedisAddress();
    ASSERT_FALSE(address_.empty());
    prefix_ = storage::testing::UniquePrefix();
    redis_ = std::make_unique<storage::RedisPool>(address_, 16);
    store_ = std::make_unique<RedisTableStore>(redis_.get(), prefix_);
  }
  void TearDown() override {
    if (!address_.empty()) storage::testing::DeleteKeys(address_, prefix_);
  }
  int64_t Pttl(const std::string& id) {
    storage::RedisConnection c(address_, 2000);
    return c.Run({"PTTL", prefix_ + ":table:" + id}).integer;
  }

  std::string address_, prefix_;
  std::unique_ptr<storage::RedisPool> redis_;
  std::unique_ptr<RedisTableStore> store_;
};

TEST_F(RedisTablesTest, CreateOnceGetAndSwapOnlyOverTheValueRead) {
  bool created = false, found = false, swapped = false;
  ASSERT_TRUE(store_->Create("abc", "v1", 60'000, &created).ok());
  EXPECT_TRUE(created);
  ASSERT_TRUE(store_->Create("abc", "other", 60'000, &created).ok());
  EXPECT_FALSE(created) << "an id is taken once";
  std::string value;
  ASSERT_TRUE(store_->Get("abc", &value, &found).ok());
  EXPECT_TRUE(found);
  EXPECT_EQ(value, "v1");
  EXPECT_GT(Pttl("abc"), 0) << "a table expires";
  ASSERT_TRUE(store_->Swap("abc", "v0", "v2", 60'000, &swapped).ok());
  EXPECT_FALSE(swapped) << "a value not read";
  ASSERT_TRUE(store_->Swap("abc", "v1", "v2", 90'000, &swapped).ok());
  EXPECT_TRUE(swapped);
  EXPECT_GT(Pttl("abc"), 60'000) << "a change renews the ttl";
  ASSERT_TRUE(store_->Swap("gone", "", "v", 60'000, &swapped).ok());
  EXPECT_FALSE(swapped) << "a swap does not bring back a table that expired";
  ASSERT_TRUE(store_->Get("gone", &value, &found).ok());
  EXPECT_FALSE(found);
}

TEST_F(RedisTablesTest, AStaleWriteLosesAndWithoutTheScriptItWins) {
  for (const bool blind : {false, true}) {
    SCOPED_TRACE(blind ? "without the script (negative control)" : "with the script");
    store_->set_blind_swap(blind);
    Tables tables(store_.get());
    FriendsTable t;
    ASSERT_TRUE(tables.Create({1, "ana"}, {}, &t).ok());
    // Bo's replica read the table, then Cy's change landed first.
    std::string read;
    bool found = false, swapped = false;
    ASSERT_TRUE(store_->Get(t.id, &read, &found).ok());
    ASSERT_TRUE(tables.Join(t.id, {3, "cy"}, &t).ok());
    FriendsTable bo_view;
    ASSERT_TRUE(Decode(read, &bo_view).ok());
    bool changed = false;
    ASSERT_TRUE(Join(&bo_view, {2, "bo"}, &changed).ok());
    ASSERT_TRUE(store_->Swap(t.id, read, Encode(bo_view), 60'000, &swapped).ok());
    ASSERT_TRUE(tables.Get(t.id, &t).ok());
    if (!blind) {
      EXPECT_FALSE(swapped);
      EXPECT_EQ(t.members.size(), 2u) << "cy's join stands";
    } else {
      EXPECT_TRUE(swapped);
      EXPECT_EQ(t.members.size(), 2u);
      EXPECT_EQ(t.members.back().name, "bo") << "cy's join was lost: the guarantee needs the script";
    }
  }
}

TEST_F(RedisTablesTest, FriendsJoiningAtOnceTakeEachSeatOnce) {
  Tables tables(store_.get());
  FriendsTable t;
  ASSERT_TRUE(tables.Create({1, "ana"}, {}, &t).ok());
  const std::string id = t.id;
  constexpr int kFriends = 12;
  std::atomic<int> joined{0}, full{0}, other{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kFriends; ++i) {
    threads.emplace_back([&, i] {
      Tables replica(store_.get());  // each on a replica of its own
      FriendsTable mine;
      const grpc::Status s = replica.Join(id, {100 + i, "friend" + std::to_string(i)}, &mine);
      if (s.ok()) {
        ++joined;
      } else if (s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
        ++full;
      } else {
        ++other;
        ADD_FAILURE() << s.error_message();
      }
    });
  }
  for (auto& th : threads) th.join();
  ASSERT_TRUE(tables.Get(id, &t).ok());
  EXPECT_EQ(joined.load(), 3) << "three seats were free";
  EXPECT_EQ(full.load(), kFriends - 3);
  EXPECT_EQ(t.members.size(), 4u);
}

}  // namespace
}  // namespace metropolis::matchmaker::tables
