// What a person's play stream writes: the host's updates as server-sent events.
#include <gtest/gtest.h>

#include "engine/action.h"
#include "services/gateway/json.h"

namespace metropolis::gateway {
namespace {

// The data line of one event.
Json Data(const std::string& sse, const std::string& event) {
  EXPECT_EQ(sse.rfind("event: " + event + "\n", 0), 0u) << sse;
  const size_t at = sse.find("data: ");
  return Json::parse(sse.substr(at + 6, sse.find('\n', at) - at - 6));
}

TEST(PlaySse, DecisionCarriesLegalCodesAsStringsWithText) {
  v1::PlayUpdate update;
  v1::Decision* d = update.mutable_decision();
  d->set_step(42);
  const uint64_t roll = Encode(*ParseAction("roll", nullptr));
  const uint64_t end = Encode(*ParseAction("end_turn", nullptr));
  d->mutable_view()->add_legal(roll);
  d->mutable_view()->add_legal(end);
  d->add_legal_text("roll");
  d->set_decision_ms_left(9000);
  d->set_time_bank_ms_left(60000);
  const std::string sse = PlayUpdateToSse(update);
  EXPECT_NE(sse.find("id: 42\n"), std::string::npos);
  const Json j = Data(sse, "decision");
  EXPECT_EQ(j["step"], 42);
  ASSERT_EQ(j["legal"].size(), 2u);
  EXPECT_EQ(j["legal"][0]["code"], std::to_string(roll));
  EXPECT_EQ(j["legal"][0]["text"], "roll");
  // Without the host's text the gateway writes the same words itself.
  EXPECT_EQ(j["legal"][1]["text"], "end_turn");
  EXPECT_EQ(j["decision_ms_left"], 9000);
  EXPECT_EQ(j["time_bank_ms_left"], 60000);
  // The view is the live stream's shape: protobuf's JSON with every field.
  EXPECT_TRUE(j["view"].contains("legal"));
  EXPECT_EQ(j["view"]["legal"][0], std::to_string(roll));
}

TEST(PlaySse, RejectedWelcomeGameOverAndRedirect) {
  v1::PlayUpdate update;
  update.mutable_rejected()->set_step(7);
  update.mutable_rejected()->set_error("stale");
  Json j = Data(PlayUpdateToSse(update), "rejected");
  EXPECT_EQ(j["step"], 7);
  EXPECT_EQ(j["error"], "stale");
  update.mutable_welcome()->set_game_id("g-1");
  update.mutable_welcome()->set_seat(2);
  j = Data(PlayUpdateToSse(update), "welcome");
  EXPECT_EQ(j["game_id"], "g-1");
  EXPECT_EQ(j["seat"], 2);
  update.mutable_game_over()->mutable_result()->set_winner(1);
  j = Data(PlayUpdateToSse(update), "game_over");
  EXPECT_EQ(j["result"]["winner"], 1);
  update.mutable_redirect()->set_host("10.0.0.1:1");
  EXPECT_EQ(PlayUpdateToSse(update), "");
}

}  // namespace
}  // namespace metropolis::gateway
