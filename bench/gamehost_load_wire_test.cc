// What gamehost_load reads of the host's updates straight from the wire
// (gamehost_load_wire.h): a decision's step and legal actions, whole or as a
// view delta that lists them or leaves the base's standing.
#include "bench/gamehost_load_wire.h"

#include <grpcpp/support/byte_buffer.h>
#include <gtest/gtest.h>

#include <string>

#include "metropolis/v1/gamehost.pb.h"

namespace metropolis::load {
namespace {

grpc::ByteBuffer Wire(const v1::PlayUpdate& update) {
  const std::string bytes = update.SerializeAsString();
  grpc::Slice slice(bytes);
  return grpc::ByteBuffer(&slice, 1);
}

TEST(LoadWire, DecisionsWholeAndAsDeltas) {
  v1::PlayUpdate whole;
  whole.mutable_decision()->set_step(12);
  whole.mutable_decision()->mutable_view()->add_legal(5);
  whole.mutable_decision()->mutable_view()->add_legal(9);
  UpdateSummary s;
  ASSERT_TRUE(SummarizeUpdate(Wire(whole), &s));
  EXPECT_EQ(s.kind, v1::PlayUpdate::kDecision);
  EXPECT_EQ(s.step, 12u);
  EXPECT_EQ(s.legal, (std::vector<uint64_t>{5, 9}));
  EXPECT_FALSE(s.view_delta);

  v1::PlayUpdate listed;
  listed.mutable_decision()->set_step(14);
  v1::ViewDelta* d = listed.mutable_decision()->mutable_view_delta();
  d->set_base_step(12);
  d->add_fields(v1::View::kHandTotalFieldNumber);
  d->add_fields(v1::View::kLegalFieldNumber);
  d->mutable_changed()->add_legal(7);
  d->add_position_fields(v1::Position::kTurnFieldNumber);
  ASSERT_TRUE(SummarizeUpdate(Wire(listed), &s));
  EXPECT_EQ(s.step, 14u);
  EXPECT_TRUE(s.view_delta);
  EXPECT_TRUE(s.legal_in_delta);
  EXPECT_EQ(s.legal, (std::vector<uint64_t>{7}));

  v1::PlayUpdate unlisted = listed;
  unlisted.mutable_decision()->mutable_view_delta()->clear_fields();
  unlisted.mutable_decision()->mutable_view_delta()->add_fields(v1::View::kHandTotalFieldNumber);
  unlisted.mutable_decision()->mutable_view_delta()->mutable_changed()->clear_legal();
  ASSERT_TRUE(SummarizeUpdate(Wire(unlisted), &s));
  EXPECT_TRUE(s.view_delta);
  EXPECT_FALSE(s.legal_in_delta) << "the base's legal actions stand";
  EXPECT_TRUE(s.legal.empty());
}

}  // namespace
}  // namespace metropolis::load
