#include "engine/progress.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace metropolis {
namespace {

int DeckSize(int track, const RulesOptions& options) {
  int n = 0;
  for (int card = TrackFirstCard(track); card < TrackFirstCard(track) + TrackNumKinds(track); ++card)
    n += ProgressCardCount(card, options);
  return n;
}

TEST(ProgressTest, DeckSizesAreEighteenEach) {  // RULES.md 1.6, 1.7
  RulesOptions options;
  EXPECT_EQ(DeckSize(kTrade, options), 18);
  EXPECT_EQ(DeckSize(kPolitics, options), 18);
  EXPECT_EQ(DeckSize(kScience, options), 18);
}

TEST(ProgressTest, SecondEngineerMakesNineteenGreen) {  // D12
  RulesOptions options;
  options.green_engineer_count = 2;
  EXPECT_EQ(ProgressCardCount(kEngineer, options), 2);
  EXPECT_EQ(DeckSize(kScience, options), 19);
  EXPECT_EQ(DeckSize(kPolitics, options), 18);
  EXPECT_EQ(DeckSize(kTrade, options), 18);
}

TEST(ProgressTest, CountsOfRules17) {
  RulesOptions options;
  EXPECT_EQ(ProgressCardCount(kAlchemist, options), 2);
  EXPECT_EQ(ProgressCardCount(kEngineer, options), 1);
  EXPECT_EQ(ProgressCardCount(kPrinter, options), 1);
  EXPECT_EQ(ProgressCardCount(kConstitution, options), 1);
  EXPECT_EQ(ProgressCardCount(kSpy, options), 3);
  EXPECT_EQ(ProgressCardCount(kMerchant, options), 6);
  EXPECT_EQ(ProgressCardCount(kResourceMonopoly, options), 4);
  EXPECT_EQ(ProgressCardCount(kTradeMonopoly, options), 2);
  EXPECT_EQ(ProgressCardCount(-1, options), 0);
  EXPECT_EQ(ProgressCardCount(kNumProgressKinds, options), 0);
}

TEST(ProgressTest, TracksPartitionTheKinds) {
  int total = 0;
  for (int track = 0; track < kNumTracks; ++track) {
    total += TrackNumKinds(track);
    for (int i = 0; i < TrackNumKinds(track); ++i) EXPECT_EQ(ProgressTrack(TrackFirstCard(track) + i), track);
  }
  EXPECT_EQ(total, kNumProgressKinds);
}

TEST(ProgressTest, Names) {
  const char* expected[kNumProgressKinds] = {
      "alchemist",       "crane",        "engineer",       "inventor",          "irrigation",
      "medicine",        "mining",       "printer",        "road_building",     "smith",
      "bishop",          "constitution", "deserter",       "diplomat",          "intrigue",
      "saboteur",        "spy",          "warlord",        "wedding",           "commercial_harbor",
      "master_merchant", "merchant",     "merchant_fleet", "resource_monopoly", "trade_monopoly",
  };
  std::set<std::string> seen;
  for (int card = 0; card < kNumProgressKinds; ++card) {
    EXPECT_EQ(ProgressCardName(card), expected[card]);
    EXPECT_EQ(ProgressCardFromName(ProgressCardName(card)), card);
    EXPECT_TRUE(seen.insert(std::string(ProgressCardName(card))).second);
  }
  EXPECT_EQ(ProgressCardName(kNumProgressKinds), "?");
  EXPECT_EQ(ProgressCardName(kNoProgressCard), "?");
  EXPECT_EQ(ProgressCardFromName("Crane"), -1);
  EXPECT_EQ(ProgressCardFromName("road building"), -1);
  EXPECT_EQ(ProgressCardFromName(""), -1);
  EXPECT_EQ(ProgressCardFromName("?"), -1);
}

}  // namespace
}  // namespace metropolis
