#include "services/replays/codec/codec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/game.h"
#include "services/replays/codec/tests/games.h"

namespace metropolis::replays {
namespace {

using testing::Config;
using testing::PlayOptions;

// Encodes, decodes, and compares by the stable codes.
void ExpectRoundTrip(const GameConfig& config, const std::vector<Action>& actions, const std::string& what) {
  std::string blob, error;
  ASSERT_TRUE(EncodeActions(config, actions, &blob, &error)) << what << ": " << error;
  std::vector<Action> decoded;
  ASSERT_TRUE(DecodeActions(config, blob, &decoded, &error)) << what << ": " << error;
  ASSERT_EQ(decoded.size(), actions.size()) << what;
  for (size_t i = 0; i < actions.size(); ++i)
    ASSERT_EQ(Encode(decoded[i]), Encode(actions[i])) << what << ", step " << i + 1;
  // Well under a byte per action even for uniformly random players (whose
  // lists are long and whose choices are all equally surprising).
  EXPECT_LT(double(blob.size()), 8 + 1.0 * double(actions.size())) << what;
}

struct Case {
  const char* name;
  int seats;
  const char* options;
  int random_games, heuristic_games;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }  // for ctest's test names

class RoundTripTest : public ::testing::TestWithParam<Case> {};

TEST_P(RoundTripTest, RandomAndHeuristicGames) {
  const Case& c = GetParam();
  int parameterised = 0;
  for (int g = 0; g < c.random_games; ++g) {
    const GameConfig config = Config(c.seats, 100 + uint64_t(g), c.options);
    const auto actions = testing::PlayGame(config, 1000 + uint64_t(g), {.parameterised_every = 15}, &parameterised);
    ExpectRoundTrip(config, actions, std::string(c.name) + " random game " + std::to_string(g));
    if (::testing::Test::HasFatalFailure()) return;
  }
  for (int g = 0; g < c.heuristic_games; ++g) {
    const GameConfig config = Config(c.seats, 200 + uint64_t(g), c.options);
    const auto actions = testing::PlayGame(config, 2000 + uint64_t(g), {.heuristic = true});
    ExpectRoundTrip(config, actions, std::string(c.name) + " heuristic game " + std::to_string(g));
    if (::testing::Test::HasFatalFailure()) return;
  }
  if (c.random_games > 0) {
    EXPECT_GT(parameterised, c.random_games) << "offers and counters were exercised";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Rulesets, RoundTripTest,
    ::testing::Values(Case{"CitiesAndKnights4", 4, "", 60, 40}, Case{"CitiesAndKnights3", 3, "", 40, 20},
                      Case{"Base4", 4, "ruleset=base", 60, 40}, Case{"Base3", 3, "ruleset=base", 40, 20},
                      Case{"Options", 4,
                           "fiesepeter=true saboteur=SABOTAGE_CITY defender_tie_reward=ANY_CARD_OF_CHOSEN_DECK "
                           "progress_hand_limit=PLAY_OR_DISCARD diplomat_scope=ALL_OPEN_ROADS start_player=ROLL "
                           "max_trade_offers_per_turn=5",
                           40, 10},
                      Case{"ShortCap", 4, "max_actions=300 start_player=ROLL", 20, 0}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

TEST(CodecTest, EmptyGameIsTheHeaderAlone) {
  const GameConfig config = Config(4, 1);
  std::string blob, error;
  ASSERT_TRUE(EncodeActions(config, {}, &blob, &error)) << error;
  EXPECT_EQ(blob, std::string("\x01\x00", 2));
  std::vector<Action> out = {Action::EndTurn()};
  ASSERT_TRUE(DecodeActions(config, blob, &out, &error)) << error;
  EXPECT_TRUE(out.empty());
  EXPECT_FALSE(DecodeActions(config, std::string("\x01\x00\x00", 3), &out, &error));
  EXPECT_EQ(error, "header: no actions, yet 1 more bytes");
}

// Random play; at the start of each action phase where the current player
// holds a card, an offer of one card for 1..7 of another resource to every
// opponent. The first addressee counters when it can, the others take the
// first listed answer, and the offerer confirms when a confirmation is listed.
TEST(CodecTest, HandMadeOffersAndCountersRoundTrip) {
  const GameConfig config = Config(4, 5);
  State s;
  ASSERT_TRUE(NewGame(config, &s, nullptr));
  chance::ChanceStreams chance(5);
  uint64_t rng = 5;
  std::vector<Action> actions;
  auto play = [&](const Action& a) {
    ASSERT_EQ(s.Apply(a), "") << ActionToString(a);
    actions.push_back(a);
  };
  int offers = 0, counters = 0;
  while (offers < 7 && !s.IsTerminal() && !::testing::Test::HasFatalFailure()) {
    if (s.IsChanceNode()) {
      play(chance.Sample(s));
      continue;
    }
    const int seat = s.CurrentPlayer();
    const CardCounts& hand = s.player(seat).hand;
    if (s.phase() == Phase::kAction && s.pending_size() == 0 && hand.Resources() > 0 && s.offers_this_turn() == 0) {
      int g = 0;
      while (hand[g] == 0) ++g;
      CardCounts give, want;
      give[g] = 1;
      want[(g + 1 + offers) % kNumResources == g ? (g + 1) % kNumResources : (g + 1 + offers) % kNumResources] =
          uint8_t(1 + offers);  // up to 7, the most an offer may name
      play(Action::TradeOffer(give, want, 0b1111 & ~(1 << seat)));
      ++offers;
      bool countered = false;
      while (!::testing::Test::HasFatalFailure() && s.pending_size() > 0 && s.CurrentPlayer() >= 0) {
        const Pending& top = s.pending(s.pending_size() - 1);
        if (top.kind == PendingKind::kTradeAnswer && !countered) {
          countered = true;
          // Give one card of another type than the offer's, ask for two of its give.
          const CardCounts& theirs = s.player(top.seat).hand;
          int t = 0;
          while (t < kNumCardTypes && (theirs[t] == 0 || give[t] > 0)) ++t;
          if (t < kNumCardTypes) {
            CardCounts cg, cw;
            cg[t] = 1;
            cw[g] = 2;
            play(Action::TradeCounter(cg, cw));
            ++counters;
            continue;
          }
        }
        play(s.LegalActions().front());  // accept (or confirm) when listed
      }
      continue;
    }
    const std::vector<Action> legal = s.LegalActions();
    play(legal[bots::NextRandom(&rng) % legal.size()]);
  }
  ASSERT_EQ(offers, 7);
  EXPECT_GE(counters, 3);
  ExpectRoundTrip(config, actions, "hand-made offers");
}

TEST(CodecTest, EncodingRefusesWhatTheEngineRefuses) {
  const GameConfig config = Config(4, 1);
  std::string blob, error;
  // The same setup settlement twice.
  std::vector<Action> actions = testing::PlayGame(config, 7, {});
  std::vector<Action> bad = {actions[0], actions[0]};
  EXPECT_FALSE(EncodeActions(config, bad, &blob, &error));
  EXPECT_EQ(error.rfind("step 2: build_settlement", 0), 0u) << error;
  // Stray data in a field the type does not have.
  bad = {actions[0]};
  bad[0].c = 9;
  EXPECT_FALSE(EncodeActions(config, bad, &blob, &error));
  EXPECT_NE(error.find("malformed action"), std::string::npos) << error;
  // A chance outcome of another kind at the first roll.
  size_t roll = 0;
  while (!IsChanceAction(actions[roll].type)) ++roll;
  bad.assign(actions.begin(), actions.begin() + long(roll));
  bad.push_back(Action::Make(ActionType::kChanceStartPlayer, 1));
  EXPECT_FALSE(EncodeActions(config, bad, &blob, &error));
  EXPECT_EQ(error.rfind("step " + std::to_string(roll + 1) + ": ", 0), 0u) << error;
  EXPECT_NE(error.find("not a possible chance outcome"), std::string::npos) << error;
  // An offer in the setup phase: the engine's rule id comes through.
  bad = {Action::TradeOffer({}, CardCounts{{1}}, 0b0010)};
  EXPECT_FALSE(EncodeActions(config, bad, &blob, &error));
  EXPECT_NE(error.find("step 1: offer"), std::string::npos) << error;
  EXPECT_NE(error.find("TRD-1"), std::string::npos) << error;
  // An action past the end.
  bad = actions;
  bad.push_back(Action::EndTurn());
  EXPECT_FALSE(EncodeActions(config, bad, &blob, &error));
  EXPECT_NE(error.find("the game is already over"), std::string::npos) << error;
  GameConfig invalid = config;
  invalid.num_seats = 7;
  EXPECT_FALSE(EncodeActions(invalid, {}, &blob, &error));
  EXPECT_FALSE(DecodeActions(invalid, "\x01", &actions, &error));
}

TEST(CodecTest, HeaderErrorsAreNamed) {
  GameConfig config = Config(4, 1);
  std::vector<Action> out;
  std::string error;
  EXPECT_FALSE(DecodeActions(config, "", &out, &error));
  EXPECT_EQ(error, "header: the blob is empty");
  EXPECT_FALSE(DecodeActions(config, "\x02\x00", &out, &error));
  EXPECT_EQ(error, "header: format version 2, this decoder reads 1");
  EXPECT_FALSE(DecodeActions(config, "\x01\x80", &out, &error));
  EXPECT_EQ(error, "header: the action count is not a valid varint");
  EXPECT_FALSE(DecodeActions(config, std::string("\x01\x85\x00", 3), &out, &error));  // 5, spelt long
  EXPECT_EQ(error, "header: the action count is not a valid varint");
  EXPECT_FALSE(DecodeActions(config, std::string("\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 11), &out, &error));
  EXPECT_EQ(error, "header: the action count is not a valid varint");
  EXPECT_FALSE(DecodeActions(config, "\x01\xa1\x9c\x01", &out, &error));  // 20001
  EXPECT_EQ(error, "header: 20001 actions, more than the configuration's max_actions 20000");
  EXPECT_FALSE(DecodeActions(config, "\x01\x05\x01\x02", &out, &error));
  EXPECT_EQ(error, "step 1: truncated: the coded actions are shorter than 4 bytes");
  EXPECT_TRUE(out.empty()) << "untouched on failure";

  // A whole game under a header that counts one action more, or one less.
  const std::vector<Action> actions = testing::PlayGame(config, 4, {});
  std::string blob;
  ASSERT_TRUE(EncodeActions(config, actions, &blob, &error)) << error;
  const std::string body = blob.substr(3);  // a 2-byte count: 128 .. 16383 actions
  ASSERT_GE(actions.size(), 128u);
  ASSERT_LT(actions.size(), 16384u);
  auto with_count = [&](size_t n) { return std::string(1, '\x01') + char(0x80 | (n & 0x7F)) + char(n >> 7) + body; };
  ASSERT_TRUE(DecodeActions(config, with_count(actions.size()), &out, &error)) << error;
  EXPECT_FALSE(DecodeActions(config, with_count(actions.size() + 1), &out, &error));
  EXPECT_EQ(error, "step " + std::to_string(actions.size() + 1) + ": the game is over, yet the header counts " +
                       std::to_string(actions.size() + 1) + " actions");
  // One less: the last step's bytes may already have been read ahead, and the
  // closing check passes if the last symbol was the first of its table (a
  // forced move): then it is the game without its last action.
  if (DecodeActions(config, with_count(actions.size() - 1), &out, &error)) {
    ASSERT_EQ(out.size(), actions.size() - 1);
    for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], actions[i]);
  }
}

// Every truncation is refused; byte flips are refused (the closing check
// catches what the engine's lists let through) or decode to another legal
// game; the decoder never runs past the header's count.
TEST(CodecTest, CorruptBlobsAreRefusedOrDecodeToAnotherLegalGame) {
  uint64_t rng = 17;
  int refused = 0, other_games = 0;
  for (int g = 0; g < 4; ++g) {  // each truncation replays its prefix: quadratic, so few games
    const GameConfig config = Config(g % 2 ? 3 : 4, 300 + uint64_t(g), g >= 2 ? "ruleset=base" : "");
    const auto actions =
        testing::PlayGame(config, 3000 + uint64_t(g), {.parameterised_every = 10, .heuristic = g % 2 == 1});
    std::string blob, error;
    ASSERT_TRUE(EncodeActions(config, actions, &blob, &error)) << error;
    std::vector<Action> out;
    for (size_t len = 0; len < blob.size(); ++len)
      ASSERT_FALSE(DecodeActions(config, blob.substr(0, len), &out, &error)) << "game " << g << ", length " << len;
    EXPECT_FALSE(DecodeActions(config, blob + '\x00', &out, &error));
    EXPECT_NE(error.find("trailing bytes"), std::string::npos) << error;
    for (int k = 0; k < 250; ++k) {
      std::string bad = blob;
      const int flips = 1 + int(bots::RandomBelow(&rng, 3));
      for (int f = 0; f < flips; ++f)
        bad[bots::RandomBelow(&rng, uint32_t(bad.size()))] ^= char(1 + bots::RandomBelow(&rng, 255));
      if (!DecodeActions(config, bad, &out, &error)) {
        ++refused;
        EXPECT_FALSE(error.empty());
        continue;
      }
      // Accepted: then it is a legal game of the header's length.
      ++other_games;
      GameRecord record;
      record.config = config;
      record.actions = out;
      EXPECT_TRUE(ReplayGame(record, {}, &error)) << error;
    }
  }
  EXPECT_GT(refused, 900);
  std::cout << refused << " corrupt blobs refused, " << other_games << " decoded to another legal game\n";
}

TEST(CodecTest, StatsAddUpToTheBlob) {
  const GameConfig config = Config(4, 9);
  const auto actions = testing::PlayGame(config, 9, {.parameterised_every = 15});
  std::string blob, error;
  CodecStats stats;
  ASSERT_TRUE(EncodeActions(config, actions, &blob, &error, &stats)) << error;
  EXPECT_EQ(stats.chance_actions + stats.decision_actions, actions.size());
  EXPECT_GT(stats.parameterised_actions, 0u);
  const double bytes = (stats.chance_bits + stats.decision_bits) / 8 + double(stats.header_bytes);
  EXPECT_NEAR(double(blob.size()), bytes, 5.0);
}

}  // namespace
}  // namespace metropolis::replays
