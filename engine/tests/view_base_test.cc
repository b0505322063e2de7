// Views of the base game (RULES.md 22, BG-9): development cards in hand are
// private and their number public, a bought card's identity is its buyer's,
// played cards are public, and VP cards stay hidden, from the VP the others
// see too, until the game ends. The contract of view.h holds as in C&K: the
// same view for states differing only in hidden cards, and
// MakeView(SampleState(v)) == v.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "engine/notation.h"
#include "engine/signature.h"
#include "engine/view.h"

namespace metropolis {
namespace {

constexpr std::string_view kHead =
    "v1 base seats=4 board=F4P9F11/P3M6G4P5/H6F2DH3F8/G9H10G8M10/P12M5G11 harbors=3o3bg3lw3 ";

State Position(std::string_view fields) {
  State s;
  std::string error;
  const std::string text = std::string(kHead) + std::string(fields);
  EXPECT_TRUE(FromNotation(text, &s, &error)) << text << "\n" << error;
  return s;
}

// Seat 0 to act with a knight and a VP card, seat 1 with a VP card and a
// monopoly, seat 2 with two knights; three knights played, one monopoly.
constexpr std::string_view kCards =
    "phase=action current=0 turn=30 s0=10,20 r0=14,27 s1=30 r1=40 s2=40 r2=52 s3=0 r3=0 hand0=1w1g2o hand1=2b "
    "dev0=1k1v dev1=1v1m dev2=2k army2=2 army3=1 dev_discarded=1m";

TEST(ViewBaseTest, Bg9HiddenHandsShowTheirSizeOnly) {
  const State s = Position(kCards);
  ASSERT_EQ(s.Validate(), "");
  const View v = MakeView(s, 0);
  EXPECT_EQ(v.state.player(0).dev, s.player(0).dev);  // own cards stay
  for (int p = 1; p < 4; ++p) {
    EXPECT_EQ(v.state.player(p).DevTotal(), 0) << p;
    EXPECT_EQ(v.dev_count[p], s.player(p).DevTotal()) << p;
    EXPECT_EQ(v.state.player(p).army, s.player(p).army) << "played knights are public";
  }
  EXPECT_EQ(v.state.dev_discarded(), s.dev_discarded());
  // The deck's size is public, its composition is what the hands leave.
  EXPECT_EQ(v.state.DevDeckSize(), 0);
  EXPECT_EQ(v.dev_deck_size, s.DevDeckSize());
  for (int k = 0; k < kNumDevKinds; ++k) {
    int unplaced = s.dev_deck()[k];
    for (int p = 1; p < 4; ++p) unplaced += s.player(p).dev[k];
    EXPECT_EQ(v.unplaced_dev[k], unplaced) << DevCardName(k);
  }
  // BG-5/BG-9: seat 1's VP card counts for him but not in what seat 0 sees;
  // seat 0 sees his own.
  EXPECT_EQ(s.player(1).vp, 2);
  EXPECT_EQ(v.state.player(1).vp, 1);
  EXPECT_EQ(v.state.player(0).vp, 3);
  EXPECT_EQ(v.state.ComputeVictoryPoints(1), 1) << "VP recomputed from the masked state must not leak either";
  EXPECT_EQ(MakeView(s, kNoSeat).state.player(0).vp, 2);
  EXPECT_EQ(v.LegalActions(), s.LegalActions());
}

TEST(ViewBaseTest, Bg9BoughtCardIsTheBuyersOnly) {
  State s = Position(kCards);
  ASSERT_EQ(s.Apply(Action::Make(ActionType::kBuyDev)), "");
  std::vector<Event> events;
  ASSERT_EQ(s.Apply(Action::Make(ActionType::kChanceDev, kDevYearOfPlenty), &events), "");
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(MaskEvent(events[0], 0).action.a, kDevYearOfPlenty);
  for (int viewer : {1, 2, kNoSeat}) EXPECT_EQ(MaskEvent(events[0], viewer).action.a, kHiddenCard) << viewer;
  EXPECT_EQ(ActionToString(MaskEvent(events[0], 1).action), "dev_card ?");
  // The buyer's view keeps what he bought this turn (BG-5 needs it); the
  // others see how many.
  EXPECT_EQ(MakeView(s, 0).state.dev_bought()[kDevYearOfPlenty], 1);
  const View other = MakeView(s, 1);
  EXPECT_EQ(other.state.dev_bought(), (std::array<uint8_t, kNumDevKinds>{}));
  EXPECT_EQ(other.dev_bought_count, 1);
  // Sampled for another seat, the bought card is one of the sampled hand.
  for (uint64_t seed = 0; seed < 50; ++seed) {
    State sample;
    std::string error;
    ASSERT_TRUE(SampleState(other, seed, &sample, &error)) << error;
    ASSERT_EQ(sample.Validate(), "");
    int bought = 0;
    for (int k = 0; k < kNumDevKinds; ++k) {
      bought += sample.dev_bought()[k];
      EXPECT_LE(sample.dev_bought()[k], sample.player(0).dev[k]);
    }
    EXPECT_EQ(bought, 1);
    EXPECT_TRUE(MakeView(sample, 1) == other) << seed;
  }
}

TEST(ViewBaseTest, Bg9PlayedCardsArePublic) {
  State s = Position(kCards);
  std::vector<Event> events;
  ASSERT_EQ(s.Apply(Action::PlayDev(kDevKnight), &events), "");
  for (int viewer : {1, kNoSeat}) {
    EXPECT_EQ(MaskEvent(events[0], viewer).action, Action::PlayDev(kDevKnight));
    EXPECT_EQ(MakeView(s, viewer).state.player(0).army, 1);
  }
}

// BG-8/WIN-1: in his own turn the current player has not won yet, so a
// sample never gives him the VP cards that would make 10.
TEST(ViewBaseTest, Bg8SamplesKeepTheCurrentPlayerBelowTheTarget) {
  // Seat 1 to act with 9 public VP and two hidden cards; VP cards are
  // plentiful among the unplaced ones.
  const State s = Position(
      "phase=action current=1 turn=40 s0=10 r0=14 c1=20,30,40 s1=0 r1=27,40,52,0 army1=3 largest=1 dev1=2k "
      "dev0=1k");
  ASSERT_EQ(s.Validate(), "");
  ASSERT_EQ(s.player(1).vp, 9);
  const View v = MakeView(s, 0);
  int vp_in_deck = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    State sample;
    std::string error;
    ASSERT_TRUE(SampleState(v, seed, &sample, &error)) << error;
    ASSERT_EQ(sample.Validate(), "");
    EXPECT_EQ(sample.player(1).dev[kDevVictoryPoint], 0) << seed;
    EXPECT_LT(sample.player(1).vp, 10);
    vp_in_deck += sample.dev_deck()[kDevVictoryPoint];
    EXPECT_TRUE(MakeView(sample, 0) == v);
  }
  EXPECT_EQ(vp_in_deck, 200 * 5) << "every VP card is in the deck or seat 0's hand";
}

TEST(ViewBaseTest, Bg9VictoryPointCardsShownAtTheEnd) {
  State s = Position("phase=action current=0 turn=20 c0=10,20,30,40 r0=14 dev0=1v1k dev1=2v1m hand0=1w1g1o");
  ASSERT_EQ(s.Apply(Action::Make(ActionType::kBuyDev)), "");
  ASSERT_EQ(s.Apply(Action::Make(ActionType::kChanceDev, kDevVictoryPoint)), "");
  ASSERT_TRUE(s.IsTerminal());
  const View v = MakeView(s, 2);
  EXPECT_EQ(v.state.player(0).dev[kDevVictoryPoint], 2);
  EXPECT_EQ(v.state.player(0).dev[kDevKnight], 0) << "only the VP cards are shown";
  EXPECT_EQ(v.state.player(0).vp, 10);
  EXPECT_EQ(v.state.player(1).dev[kDevVictoryPoint], 2);
  EXPECT_EQ(v.state.player(1).vp, 2);
  State sample;
  std::string error;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    ASSERT_TRUE(SampleState(v, seed, &sample, &error)) << error;
    EXPECT_EQ(sample.Validate(), "");
    EXPECT_EQ(sample.player(1).dev[kDevMonopoly] + sample.player(1).dev[kDevKnight] +
                  sample.player(1).dev[kDevRoadBuilding] + sample.player(1).dev[kDevYearOfPlenty],
              1);
    EXPECT_TRUE(MakeView(sample, 2) == v);
  }
}

// Development-card actions move no resource card unseen, so what a tracker
// knew of a hand survives them.
TEST(ViewBaseTest, TrackerKeepsKnowledgeThroughDevelopmentCards) {
  State s = Position(kCards);
  KnowledgeTracker k(2);
  k.Reset(s);
  std::vector<Event> events;
  auto play = [&](const Action& a) {
    events.clear();
    ASSERT_EQ(s.Apply(a, &events), "") << ActionToString(a);
    for (const Event& e : events) k.Observe(MaskEvent(e, 2));
  };
  // Seat 1 accepting an offer of 1 ore for 2 brick shows it holds them (TRD-3).
  CardCounts give, want;
  give[kOre] = 1;
  want[kBrick] = 2;
  play(Action::Make(ActionType::kBuyDev));
  play(Action::Make(ActionType::kChanceDev, kDevKnight));
  play(Action::TradeOffer(give, want, 1 << 1));
  play(Action::Make(ActionType::kTradeAccept));
  play(Action::Make(ActionType::kTradeCancel));
  EXPECT_EQ(k.known_hand(1)[kBrick], 2);
  play(Action::PlayDev(kDevKnight));
  EXPECT_EQ(k.known_hand(1)[kBrick], 2);
}

// Random base games: every seat's and a spectator's view, with trackers fed
// the masked events, sampled and reproduced (view.h's contract).
TEST(ViewBaseTest, RandomGamesKeepTheContract) {
  int checks = 0, hidden_vp = 0;
  for (uint64_t g = 0; g < 60; ++g) {
    GameConfig config;
    config.num_seats = g % 4 == 3 ? 3 : 4;
    config.board = RandomBoard(g + 500);
    config.options = DefaultOptions(Ruleset::kBase);
    State s;
    std::string error;
    ASSERT_TRUE(NewGame(config, &s, &error)) << error;
    std::vector<KnowledgeTracker> trackers;
    for (int viewer = -1; viewer < s.num_seats(); ++viewer) {
      trackers.emplace_back(viewer);
      trackers.back().Reset(s);
    }
    BenchRng chance{g}, players{g * 7 + 1};
    for (int step = 0; !s.IsTerminal(); ++step) {
      Action a;
      if (s.IsChanceNode()) {
        a = s.SampleChance(chance.Uniform());
      } else {
        const std::vector<Action> legal = s.LegalActions();
        a = legal[players.Next() % legal.size()];
      }
      std::vector<Event> events;
      ASSERT_EQ(s.Apply(a, &events), "");
      for (KnowledgeTracker& k : trackers) {
        for (const Event& e : events) k.Observe(MaskEvent(e, k.viewer()));
        for (int p = 0; p < s.num_seats(); ++p) ASSERT_TRUE(s.player(p).hand.Contains(k.known_hand(p)));
      }
      if (step % 9 != 0 && !s.IsTerminal()) continue;
      for (int p = 0; p < s.num_seats(); ++p) hidden_vp += s.player(p).dev[kDevVictoryPoint];
      for (const KnowledgeTracker& k : trackers) {
        const View v = MakeView(s, k.viewer(), &k);
        State sample;
        ASSERT_TRUE(SampleState(v, players.Next(), &sample, &error)) << error << "\n" << ToNotation(s);
        ASSERT_EQ(sample.Validate(), "") << ToNotation(s);
        ASSERT_TRUE(MakeView(sample, k.viewer(), &k) == v) << "viewer " << k.viewer() << "\n"
                                                           << ToNotation(s) << "\n"
                                                           << ToNotation(sample);
        ++checks;
      }
    }
  }
  EXPECT_GT(checks, 10000);
  EXPECT_GT(hidden_vp, 100) << "VP cards were held while views were checked";
}

}  // namespace
}  // namespace metropolis
