// What every CheckpointStore answers when it cannot be reached (checkpoint.h):
// UNAVAILABLE from every call, in RedisErrorStatus's words ("checkpoint store
// unavailable: ..."), never a code the host would act on as an answer (ABORTED
// would give the game up, NOT_FOUND write it again), and nothing read. Written
// once, instantiated over the fakes (Fake/..., checkpoint_test.cc) and over
// RedisCheckpointStore with nothing listening (Redis/...,
// integration/redis_checkpoints_test.cc). Each fixture derives from
// ::testing::Test and has UnreachableStore(): a store that cannot be reached.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "services/gamehost/checkpoint.h"

namespace metropolis::gamehost {

template <typename Fixture>
class CheckpointStoreContract : public Fixture {};

TYPED_TEST_SUITE_P(CheckpointStoreContract);

TYPED_TEST_P(CheckpointStoreContract, EveryCallToAnUnreachableStoreAnswersUnavailable) {
  std::unique_ptr<CheckpointStore> store = this->UnreachableStore();
  const services::Millis lease = 1000;
  uint64_t fence = 0;
  Checkpoint taken;
  std::vector<std::string> orphans;
  const std::vector<Action> actions;
  const std::vector<SeatProgress> seats = {{1000, 0, 0, 0, false}};
  const std::vector<std::pair<std::string, grpc::Status>> answers = {
      {"Create", store->Create("g", "setup", "host-a", lease, &fence)},
      {"Append", store->Append("g", 1, "host-a", lease, 0, actions, seats, true)},
      {"Recreate", store->Recreate("g", 1, "host-a", lease, "setup", actions, seats, true)},
      {"Renew", store->Renew("g", 1, "host-a", lease)},
      {"Done", store->Done("g")},
      {"Orphans", store->Orphans(10, lease, &orphans)},
      {"TakeOver", store->TakeOver("g", "host-b", lease, &fence, &taken)},
      {"Reclaim", store->Reclaim("g", "host-a", lease, &fence, &taken)}};
  std::vector<std::pair<std::string, grpc::Status>> all = answers;
  const AppendRequest request{.game_id = "g",
                              .fence = 1,
                              .host = "host-a",
                              .lease_ms = lease,
                              .from = 0,
                              .tail = {},
                              .seats = seats,
                              .phase = true};
  const std::vector<grpc::Status> many = store->AppendMany({request, request});
  ASSERT_EQ(many.size(), 2u);
  for (const grpc::Status& s : many) all.emplace_back("AppendMany", s);
  for (const auto& [call, s] : all) {
    EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE) << call << ": " << s.error_message();
    EXPECT_TRUE(s.error_message().starts_with("checkpoint store unavailable: ")) << call << ": " << s.error_message();
  }
  EXPECT_EQ(fence, 0u);
  EXPECT_TRUE(orphans.empty());
  EXPECT_TRUE(taken.setup.empty());
  EXPECT_EQ(store->Owner("g"), std::nullopt);
}

REGISTER_TYPED_TEST_SUITE_P(CheckpointStoreContract, EveryCallToAnUnreachableStoreAnswersUnavailable);

}  // namespace metropolis::gamehost
