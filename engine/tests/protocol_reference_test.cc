// The protocol reference (engine/protocol_reference.h) documents every action
// type, pending kind and event type exactly once, its examples are real
// actions that read back from their text and code, and what it says answers a
// pending decision is what the engine lists there in random games.
#include "engine/protocol_reference.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "engine/config.h"
#include "engine/progress.h"
#include "engine/splitmix.h"
#include "engine/state.h"

namespace metropolis {
namespace {

TEST(ProtocolReferenceTest, EveryActionTypeHasExactlyOneEntry) {
  std::map<int, int> entries;
  for (const ActionReference& r : ActionReferences()) ++entries[int(r.type)];
  for (int code = 0; code < 256; ++code) {
    const bool exists = ActionTypeName(ActionType(code)) != "?";
    EXPECT_EQ(entries[code], exists ? 1 : 0)
        << "action type " << code << " (" << ActionTypeName(ActionType(code)) << ")";
  }
}

TEST(ProtocolReferenceTest, ActionsAreSortedAndTheirPayloadMatchesTheEncoding) {
  int last = -1;
  for (const ActionReference& r : ActionReferences()) {
    SCOPED_TRACE(std::string(r.constant));
    EXPECT_GT(int(r.type), last) << "sorted by code";
    last = int(r.type);
    EXPECT_FALSE(r.who.empty());
    EXPECT_FALSE(r.rules.empty());
    const auto kinds = ActionFieldKinds(r.type);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(r.payload[i].empty(), kinds[i].empty()) << "payload byte " << i;
  }
}

void ExpectRoundTrip(const Action& a) {
  const std::string text = ActionToString(a);
  SCOPED_TRACE(text);
  std::string error;
  std::optional<Action> parsed = ParseAction(text, &error);
  ASSERT_TRUE(parsed.has_value()) << error;
  EXPECT_EQ(Encode(*parsed), Encode(a));
  EXPECT_EQ(ActionToString(*parsed), text);
  std::optional<Action> decoded = Decode(Encode(a));
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(*decoded, *parsed);
}

TEST(ProtocolReferenceTest, ExamplesParseBackToTheSameAction) {
  for (const ActionReference& r : ActionReferences()) {
    EXPECT_EQ(r.example.type, r.type) << r.constant;
    ExpectRoundTrip(r.example);
  }
  for (const CardPlayReference& p : ProgressPlayReferences()) ExpectRoundTrip(p.example);
  for (const CardPlayReference& p : DevPlayReferences()) ExpectRoundTrip(p.example);
}

TEST(ProtocolReferenceTest, EveryCardHasItsParameterRow) {
  ASSERT_EQ(int(ProgressPlayReferences().size()), kNumProgressKinds);
  for (int card = 0; card < kNumProgressKinds; ++card) {
    const CardPlayReference& p = ProgressPlayReferences()[card];
    EXPECT_EQ(p.card, card);
    EXPECT_EQ(p.example.type, ActionType::kPlayProgress);
    EXPECT_EQ(p.example.a, card);
  }
  ASSERT_EQ(int(DevPlayReferences().size()), kNumDevKinds);
  for (int card = 0; card < kNumDevKinds; ++card) {
    const CardPlayReference& p = DevPlayReferences()[card];
    EXPECT_EQ(p.card, card);
    EXPECT_EQ(p.example.type, ActionType::kPlayDev);
    EXPECT_EQ(p.example.a, card);
  }
}

TEST(ProtocolReferenceTest, EveryPendingKindHasExactlyOneEntry) {
  ASSERT_EQ(int(PendingReferences().size()), NumPendingKinds());
  for (int k = 0; k < NumPendingKinds(); ++k) {
    const PendingReference& p = PendingReferences()[k];
    SCOPED_TRACE(std::string(PendingKindName(PendingKind(k))));
    EXPECT_EQ(int(p.kind), k);
    EXPECT_EQ(p.role == PendingRole::kChance, IsChancePending(p.kind));
    EXPECT_EQ(p.answers.empty(), p.role == PendingRole::kAutomatic);
    EXPECT_FALSE(p.fields[0].empty()) << "every entry has a seat";
    EXPECT_FALSE(p.rules.empty());
    for (ActionType t : p.answers) {
      EXPECT_NE(ActionTypeName(t), "?");
      EXPECT_EQ(IsChanceAction(t), p.role == PendingRole::kChance) << ActionTypeName(t);
    }
  }
  EXPECT_EQ(PendingKindName(PendingKind(NumPendingKinds())), "?");
}

TEST(ProtocolReferenceTest, EveryEventTypeHasExactlyOneEntry) {
  ASSERT_EQ(int(EventReferences().size()), kNumEventTypes);
  for (int t = 0; t < kNumEventTypes; ++t) {
    const EventReference& r = EventReferences()[t];
    EXPECT_EQ(int(r.type), t);
    EXPECT_EQ(r.example.type, r.type);
    EXPECT_NE(EventTypeName(r.type), "?");
    EXPECT_FALSE(r.visibility.empty());
  }
  // A value past the last has no name: kNumEventTypes counts them all.
  for (int t = kNumEventTypes; t < 256; ++t) EXPECT_EQ(EventTypeName(EventType(t)), "?") << t;
}

// What answers each decision, as the engine lists it: random games under both
// rulesets and the options that raise the rarer decisions. Every listed action
// at a decision is one the reference names for it; chance outcomes likewise.
TEST(ProtocolReferenceTest, AnswersCoverWhatTheEngineLists) {
  std::map<PendingKind, std::set<ActionType>> documented;
  for (const PendingReference& p : PendingReferences()) documented[p.kind].insert(p.answers.begin(), p.answers.end());
  std::set<PendingKind> seen;
  uint64_t rng = 12345;
  auto uniform = [&] { return double(SplitMixNext(&rng) >> 11) * (1.0 / 9007199254740992.0); };
  for (int game = 0; game < 60; ++game) {
    GameConfig config;
    config.num_seats = 3 + game % 2;
    config.board = RandomBoard(uint64_t(game));
    const bool base = game % 3 == 2;
    config.options = DefaultOptions(base ? Ruleset::kBase : Ruleset::kCitiesAndKnights);
    if (!base && game % 2 == 1) {
      config.options.fiesepeter = true;
      config.options.start_player = StartPlayer::kRoll;
      config.options.saboteur = Saboteur::kSabotageCity;
      config.options.defender_tie_reward = DefenderTieReward::kAnyCardOfChosenDeck;
    }
    config.options.max_actions = 3000;
    State s(config);
    std::string error;
    ASSERT_TRUE(NewGame(config, &s, &error)) << error;
    while (!s.IsTerminal()) {
      if (s.pending_size() > 0) {
        const Pending& top = s.pending(s.pending_size() - 1);
        seen.insert(top.kind);
        std::vector<Action> actions;
        if (s.IsChanceNode()) {
          for (const ChanceOutcome& o : s.ChanceOutcomes()) actions.push_back(o.action);
        } else {
          actions = s.LegalActions();
        }
        for (const Action& a : actions)
          ASSERT_TRUE(documented[top.kind].count(a.type))
              << ActionToString(a) << " at pending " << PendingKindName(top.kind);
      }
      if (s.IsChanceNode()) {
        s.ApplyUnchecked(s.SampleChance(uniform()));
      } else {
        const std::vector<Action> legal = s.LegalActions();
        s.ApplyUnchecked(legal[size_t(uniform() * double(legal.size()))]);
      }
    }
  }
  // Every chance node and decision came up, so the check above checked them
  // all, except the trade answers: random players make no offers (offers are
  // never listed), and rules_trade_test covers them.
  for (const PendingReference& p : PendingReferences()) {
    if (p.role == PendingRole::kAutomatic || p.kind == PendingKind::kTradeAnswer || p.kind == PendingKind::kTradeClose)
      continue;
    EXPECT_TRUE(seen.count(p.kind)) << PendingKindName(p.kind) << " never came up";
  }
}

TEST(ProtocolReferenceTest, DocumentsNameEveryKind) {
  const std::string md = ProtocolReferenceMarkdown();
  const std::string json = ProtocolReferenceJson();
  for (const ActionReference& r : ActionReferences()) {
    EXPECT_NE(md.find("`" + std::string(r.constant) + "`"), std::string::npos) << r.constant;
    EXPECT_NE(json.find("\"" + std::string(r.constant) + "\""), std::string::npos) << r.constant;
  }
  for (const EventReference& r : EventReferences())
    EXPECT_NE(md.find("`" + std::string(EventTypeName(r.type)) + "`"), std::string::npos);
  for (int k = 0; k < NumPendingKinds(); ++k)
    EXPECT_NE(md.find("`" + std::string(PendingKindName(PendingKind(k))) + "`"), std::string::npos);
}

}  // namespace
}  // namespace metropolis
