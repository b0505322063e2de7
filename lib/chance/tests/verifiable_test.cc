// Verifiable chance (docs/CHANCE.md). The known answers were computed with
// Python's hmac and hashlib from the specification, not with this code, so a
// verifier written from the document agrees with the game host.
#include "lib/chance/verifiable.h"

#include <gtest/gtest.h>

#include <set>

#include "bots/bot.h"
#include "lib/chance/verify.h"

namespace metropolis::chance {
namespace {

Seed KnownSeed() { return DeriveSeed("platform key for the known-answer test", "game/g-0001"); }

TEST(VerifiableChance, KnownAnswersFromAnIndependentImplementation) {
  const Seed seed = KnownSeed();
  EXPECT_EQ(ToHex(seed), "cfa031caa61ad7ce673b81982ad0cbe13863486f5c45bb6402ea2c189f6754b2");
  EXPECT_EQ(ToHex(CommitTo(seed)), "ee140d7f85332fe48a2515aadde7a2a95e2ccc4f2132c18ea0e01e90bc85a77e");
  EXPECT_EQ(ChanceNumber(seed, ChanceKind::kDice, 0), 0x1c536cf2ed816703ull);
  EXPECT_EQ(ChanceNumber(seed, ChanceKind::kDice, 1), 0x8468b430f4263828ull);
  EXPECT_EQ(ChanceNumber(seed, ChanceKind::kDice, 2), 0xa3d7c045ad50303eull);
  EXPECT_EQ(ChanceNumber(seed, ChanceKind::kStartPlayer, 0), 0x68d8d168b8bfc6f4ull);
  EXPECT_EQ(ChanceNumber(seed, ChanceKind::kSteal, 7), 0xd645a986b234ce5aull);
  EXPECT_EQ(ChanceNumber(seed, ChanceKind::kDice, uint64_t(1) << 40), 0xbd00a05bcfee3371ull);
  EXPECT_EQ(SubSeed(seed, "bot 0"), 0x7c23c9a86ac5830cull);
}

TEST(VerifiableChance, StreamsDrawTheSpecifiedNumbers) {
  const Seed seed = KnownSeed();
  ChanceStreams streams = VerifiableStreams(seed);
  streams.Next(ChanceKind::kSteal);  // another stream does not move the dice
  EXPECT_EQ(streams.Next(ChanceKind::kDice), double(0x1c536cf2ed816703ull >> 11) * 0x1.0p-53);
  EXPECT_EQ(streams.Next(ChanceKind::kDice), double(0x8468b430f4263828ull >> 11) * 0x1.0p-53);
  EXPECT_EQ(streams.used(ChanceKind::kDice), 2u);
  EXPECT_EQ(streams.used(ChanceKind::kSteal), 1u);
}

TEST(VerifiableChance, SeedsDependOnTheKeyAndTheIdentity) {
  std::set<std::string> seeds;
  for (std::string_view key : {"key one", "key two"}) {
    for (std::string_view id : {"game/a", "game/b", "game/a "}) seeds.insert(ToHex(DeriveSeed(key, id)));
  }
  EXPECT_EQ(seeds.size(), 6u);
  EXPECT_EQ(DeriveSeed("key one", "game/a"), DeriveSeed("key one", "game/a"));
  EXPECT_NE(RandomSeed(), RandomSeed());
}

TEST(VerifiableChance, HexRoundTripsAndRefusesWhatIsNotASeed) {
  const Seed seed = KnownSeed();
  Seed back{};
  ASSERT_TRUE(FromHex(ToHex(seed), &back));
  EXPECT_EQ(back, seed);
  ASSERT_TRUE(FromHex("CFA031CAA61AD7CE673B81982AD0CBE13863486F5C45BB6402EA2C189F6754B2", &back));
  EXPECT_EQ(back, seed);
  Seed untouched{};
  EXPECT_FALSE(FromHex("cfa0", &untouched));
  EXPECT_FALSE(FromHex(std::string(63, 'a') + "g", &untouched));
  EXPECT_FALSE(FromBytes("short", &untouched));
  EXPECT_EQ(untouched, Seed{});
  ASSERT_TRUE(FromBytes(AsBytes(seed), &back));
  EXPECT_EQ(back, seed);
}

// A game of built-in bots whose chance comes from `seed`.
std::vector<Action> PlayedWith(const Seed& seed, const GameConfig& config) {
  std::string error;
  std::unique_ptr<bots::Bot> bot = bots::MakeBot("heuristic", &error);
  State s(config);
  EXPECT_TRUE(NewGame(config, &s, &error)) << error;
  ChanceStreams chance = VerifiableStreams(seed);
  std::vector<Action> actions;
  uint64_t rng = 3;
  while (!s.IsTerminal() && actions.size() < 3000) {
    const Action a = s.IsChanceNode() ? chance.Sample(s) : bot->Choose(MakeView(s, s.CurrentPlayer()), &rng);
    s.ApplyUnchecked(a);
    actions.push_back(a);
  }
  return actions;
}

GameConfig Config() {
  GameConfig config;
  config.board = RandomBoard(4);
  config.options.start_player = StartPlayer::kRoll;
  return config;
}

TEST(CheckChance, AGamePlayedWithItsSeedVerifies) {
  const Seed seed = KnownSeed();
  const std::vector<Action> actions = PlayedWith(seed, Config());
  ChanceCheck check;
  ASSERT_TRUE(CheckChance(Config(), actions, VerifiableStreams(seed), &check)) << check.error;
  EXPECT_EQ(check.actions, int(actions.size()));
  EXPECT_GT(check.rolls, 20);
  EXPECT_GT(check.chance_nodes, check.rolls);  // the start player, steals and draws too
}

TEST(CheckChance, AnotherSeedOrAnAlteredDieIsCaughtWhereItHappens) {
  const Seed seed = KnownSeed();
  std::vector<Action> actions = PlayedWith(seed, Config());
  ChanceCheck check;
  EXPECT_FALSE(CheckChance(Config(), actions, VerifiableStreams(DeriveSeed("another key", "game/g-0001")), &check));
  EXPECT_NE(check.error.find("the seed draws"), std::string::npos) << check.error;

  // The first production roll, made another seven: the check stops right there.
  size_t roll = 0;
  while (roll < actions.size() && !(actions[roll].type == ActionType::kChanceDice && actions[roll].a != 0)) ++roll;
  ASSERT_LT(roll, actions.size());
  const Action seven = Action::Dice(actions[roll].a == 3 ? 2 : 3, actions[roll].a == 3 ? 5 : 4, actions[roll].c);
  ASSERT_NE(seven, actions[roll]);
  actions[roll] = seven;
  EXPECT_FALSE(CheckChance(Config(), actions, VerifiableStreams(seed), &check));
  EXPECT_EQ(check.error.rfind("action " + std::to_string(roll) + " ", 0), 0u) << check.error;
  EXPECT_EQ(check.actions, int(roll));
}

}  // namespace
}  // namespace metropolis::chance
