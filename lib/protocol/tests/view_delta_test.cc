// Views as deltas (view_delta.h): over random games of every test
// configuration, every viewer's view at every step, sent as a delta against a
// view one to several steps older, turns that older view into exactly the new
// one; the deltas are a fraction of the views; a delta naming a field the
// reader does not know is refused and changes nothing.
#include "lib/protocol/view_delta.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "engine/view.h"
#include "lib/protocol/convert.h"
#include "lib/protocol/tests/random_games.h"

namespace metropolis::protocol {
namespace {

class ViewDeltaRoundTrip : public ::testing::TestWithParam<int> {};

TEST_P(ViewDeltaRoundTrip, EveryViewFromAnOlderOne) {
  const GameConfig config = testing::TestConfigs()[size_t(GetParam())];
  const int n = config.num_seats;
  size_t full_bytes = 0, delta_bytes = 0, views = 0, unchanged_position = 0;
  for (int g = 0; g < 6 && !HasFailure(); ++g) {
    std::vector<KnowledgeTracker> trackers;
    std::vector<v1::View> bases(size_t(n + 1));
    std::vector<uint32_t> base_steps(size_t(n + 1), 0);
    testing::SplitMix gaps{uint64_t(77 + g)};
    testing::PlayRandomGame(
        config, 500 * uint64_t(GetParam() + 1) + uint64_t(g),
        [&](const State& s, const Action* applied, const std::vector<Event>& events) {
          if (HasFailure()) return;
          if (applied == nullptr) {
            for (int viewer = kNoSeat; viewer < n; ++viewer) trackers.emplace_back(viewer);
            for (KnowledgeTracker& k : trackers) k.Reset(s);
          }
          const uint32_t step = uint32_t(s.action_count());
          for (size_t i = 0; i < trackers.size(); ++i) {
            KnowledgeTracker& k = trackers[i];
            for (const Event& e : events) k.Observe(MaskEvent(e, k.viewer()));
            v1::View next;
            ViewToProto(MakeView(s, k.viewer(), &k), &next);
            if (applied != nullptr) {
              v1::ViewDelta delta;
              MakeViewDelta(bases[i], base_steps[i], next, &delta);
              ASSERT_EQ(delta.base_step(), base_steps[i]);
              ASSERT_TRUE(std::find(delta.fields().begin(), delta.fields().end(),
                                    uint32_t(v1::View::kPositionFieldNumber)) == delta.fields().end());
              // Through the wire, as a reader gets it.
              v1::ViewDelta received;
              ASSERT_TRUE(received.ParseFromString(delta.SerializeAsString()));
              v1::View rebuilt = bases[i];
              std::string error;
              ASSERT_TRUE(ApplyViewDelta(received, &rebuilt, &error)) << error;
              ASSERT_EQ(rebuilt.SerializeAsString(), next.SerializeAsString())
                  << "viewer " << k.viewer() << " at step " << step << " from step " << base_steps[i];
              full_bytes += next.ByteSizeLong();
              delta_bytes += delta.ByteSizeLong();
              ++views;
              if (delta.position_fields().empty()) ++unchanged_position;
            }
            // The next delta's base: this view, or (now and then) an older one,
            // as for a seat whose decisions the fallback bot took.
            if (applied == nullptr || gaps.Below(3) != 0) {
              bases[i] = next;
              base_steps[i] = step;
            }
          }
        });
  }
  ASSERT_GT(views, 1000u);
  std::cout << "[ view delta ] " << views << " views: " << full_bytes / views << " B whole, " << delta_bytes / views
            << " B as deltas (" << 100 * delta_bytes / full_bytes << " %); " << unchanged_position
            << " with no Position field changed\n";
  // Most of a view is the board, which changes a piece at a time.
  EXPECT_LT(delta_bytes * 2, full_bytes);
}

INSTANTIATE_TEST_SUITE_P(Configs, ViewDeltaRoundTrip, ::testing::Range(0, int(testing::TestConfigs().size())));

TEST(ViewDelta, AFieldTheReaderDoesNotKnowIsRefusedAndChangesNothing) {
  v1::View base;
  base.set_viewer(2);
  base.add_hand_total(5);
  base.mutable_position()->set_turn(9);
  const std::string before = base.SerializeAsString();
  std::string error;

  v1::ViewDelta unknown;
  unknown.add_fields(uint32_t(v1::View::kHandTotalFieldNumber));
  unknown.add_fields(999);
  EXPECT_FALSE(ApplyViewDelta(unknown, &base, &error));
  EXPECT_EQ(error, "view delta: View has no field 999 to change");
  EXPECT_EQ(base.SerializeAsString(), before);

  v1::ViewDelta position_whole;
  position_whole.add_fields(uint32_t(v1::View::kPositionFieldNumber));
  EXPECT_FALSE(ApplyViewDelta(position_whole, &base, &error));
  EXPECT_EQ(base.SerializeAsString(), before);

  v1::ViewDelta unknown_position;
  unknown_position.add_position_fields(4242);
  EXPECT_FALSE(ApplyViewDelta(unknown_position, &base, &error));
  EXPECT_EQ(error, "view delta: Position has no field 4242 to change");
  EXPECT_EQ(base.SerializeAsString(), before);

  // A listed field absent from `changed` is cleared: an emptied hand is a change.
  v1::ViewDelta emptied;
  emptied.add_fields(uint32_t(v1::View::kHandTotalFieldNumber));
  emptied.add_position_fields(uint32_t(v1::Position::kTurnFieldNumber));
  ASSERT_TRUE(ApplyViewDelta(emptied, &base, &error)) << error;
  EXPECT_EQ(base.hand_total_size(), 0);
  EXPECT_EQ(base.position().turn(), 0u);
  EXPECT_EQ(base.viewer(), 2);
}

}  // namespace
}  // namespace metropolis::protocol
