#include "services/replays/codec/range_coder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "bots/bot.h"
#include "services/replays/codec/model.h"

namespace metropolis::replays {
namespace {

struct Coded {
  std::vector<uint32_t> freq;  // one table per symbol, to exercise every shape
  int symbol;
};

// A random table (1..300 symbols, some nearly certain, some tiny) and a symbol.
Coded RandomStep(uint64_t* rng) {
  Coded c;
  const int n = 1 + int(bots::RandomBelow(rng, 300));
  const uint32_t cap = std::max<uint32_t>(1, kMaxTotal / uint32_t(n));
  for (int i = 0; i < n; ++i) c.freq.push_back(1 + bots::RandomBelow(rng, bots::RandomBelow(rng, 2) ? cap : 3));
  c.symbol = int(bots::RandomBelow(rng, uint32_t(n)));
  return c;
}

SymbolTable Table(const std::vector<uint32_t>& freq) {
  SymbolTable t;
  t.cum.assign(1, 0);
  for (uint32_t f : freq) t.cum.push_back(t.cum.back() + f);
  return t;
}

std::string EncodeAll(const std::vector<Coded>& steps) {
  std::string out;
  RangeEncoder enc(&out);
  for (const Coded& c : steps) {
    const SymbolTable t = Table(c.freq);
    enc.Encode(t.cum[size_t(c.symbol)], t.freq(c.symbol), t.total());
  }
  enc.Finish();
  return out;
}

// Decodes steps.size() symbols; false on the first refusal.
bool DecodeAll(const std::string& bytes, const std::vector<Coded>& steps, std::vector<int>* symbols) {
  RangeDecoder dec(bytes);
  if (!dec.Start()) return false;
  for (const Coded& c : steps) {
    const SymbolTable t = Table(c.freq);
    uint32_t target;
    if (!dec.Target(t.total(), &target)) return false;
    const int s = t.Find(target);
    if (!dec.Consume(t.cum[size_t(s)], t.freq(s))) return false;
    symbols->push_back(s);
  }
  return dec.AtEnd() && dec.EndsWhereTheEncoderEnded();
}

TEST(RangeCoderTest, RandomSequencesRoundTripAtTheirInformationContent) {
  uint64_t rng = 7;
  for (int round = 0; round < 200; ++round) {
    std::vector<Coded> steps;
    double bits = 0;
    const int length = int(bots::RandomBelow(&rng, 400));
    for (int i = 0; i < length; ++i) {
      steps.push_back(RandomStep(&rng));
      const SymbolTable t = Table(steps.back().freq);
      bits += std::log2(double(t.total()) / t.freq(steps.back().symbol));
    }
    const std::string bytes = EncodeAll(steps);
    std::vector<int> symbols;
    ASSERT_TRUE(DecodeAll(bytes, steps, &symbols)) << "round " << round;
    for (size_t i = 0; i < steps.size(); ++i) ASSERT_EQ(symbols[i], steps[i].symbol) << "round " << round;
    // 4 bytes of flush, and a rounding loss of at most 2^-8 of the range per symbol.
    EXPECT_LE(double(bytes.size()), bits / 8 + 4 + 1 + length * 0.006 / 8) << "round " << round;
  }
}

TEST(RangeCoderTest, CertainSymbolsCostNothing) {
  std::vector<Coded> steps(10000, Coded{{1}, 0});
  EXPECT_EQ(EncodeAll(steps).size(), 4u);
}

TEST(RangeCoderTest, LongRunsOfCarriesAreResolved) {
  // Always the top symbol of a wide table: low creeps up to 0xFF... bytes, the
  // case where a carry must ripple through held-back bytes.
  uint64_t rng = 3;
  for (int round = 0; round < 50; ++round) {
    std::vector<Coded> steps;
    for (int i = 0; i < 3000; ++i) {
      const bool top = bots::RandomBelow(&rng, 50) != 0;
      steps.push_back(Coded{{kMaxTotal - 2, 1, 1}, top ? 2 : int(bots::RandomBelow(&rng, 3))});
    }
    std::vector<int> symbols;
    ASSERT_TRUE(DecodeAll(EncodeAll(steps), steps, &symbols));
    for (size_t i = 0; i < steps.size(); ++i) ASSERT_EQ(symbols[i], steps[i].symbol);
  }
}

TEST(RangeCoderTest, EveryTruncationAndAnyExtraByteIsRefused) {
  uint64_t rng = 11;
  std::vector<Coded> steps;
  for (int i = 0; i < 300; ++i) steps.push_back(RandomStep(&rng));
  const std::string bytes = EncodeAll(steps);
  for (size_t len = 0; len < bytes.size(); ++len) {
    std::vector<int> symbols;
    EXPECT_FALSE(DecodeAll(bytes.substr(0, len), steps, &symbols)) << "length " << len;
  }
  std::vector<int> symbols;
  EXPECT_FALSE(DecodeAll(bytes + '\0', steps, &symbols));
}

TEST(RangeCoderTest, AnyChangedByteIsCaughtByTheClosingCheck) {
  // Tables that never refuse a value (every slot the same width, total a power
  // of two): only the closing bytes can tell a changed stream from a valid one.
  uint64_t rng = 13;
  std::vector<Coded> steps;
  for (int i = 0; i < 500; ++i) steps.push_back(Coded{std::vector<uint32_t>(64, 1), int(bots::RandomBelow(&rng, 64))});
  const std::string bytes = EncodeAll(steps);
  int caught = 0;
  for (size_t i = 0; i < bytes.size(); ++i)
    for (int bit = 0; bit < 8; ++bit) {
      std::string bad = bytes;
      bad[i] ^= char(1 << bit);
      std::vector<int> symbols;
      caught += !DecodeAll(bad, steps, &symbols);
    }
  EXPECT_EQ(caught, int(bytes.size()) * 8);
}

TEST(RangeCoderTest, BytesAreFixed) {
  // The format: these bytes must never change for these symbols.
  std::vector<Coded> steps = {{{1, 1}, 1}, {{3, 1, 4, 1, 5}, 2}, {{100, 1}, 1}, {{1, 1, 1, 1, 1, 1}, 5}};
  const std::string bytes = EncodeAll(steps);
  std::string hex;
  for (char c : bytes) hex += "0123456789abcdef"[uint8_t(c) >> 4], hex += "0123456789abcdef"[uint8_t(c) & 15];
  EXPECT_EQ(hex, "c9151f1aa9");
}

TEST(ModelTest, ChanceTablesFollowTheProbabilities) {
  State s;  // the default game starts with seat 0; play to the first roll
  ActionList legal;
  while (!s.IsChanceNode()) {
    s.LegalActions(&legal);
    s.ApplyUnchecked(legal.items[0]);
  }
  const std::vector<ChanceOutcome> outcomes = s.ChanceOutcomes();
  SymbolTable t;
  BuildChanceTable(outcomes, &t);
  ASSERT_EQ(t.size(), 144);  // 36 production rolls times 4 event faces
  // A ship is 1/72 (455.1 of 2^15), a gate 1/216 (151.7): rounded to the nearest.
  for (int i = 0; i < t.size(); ++i)
    EXPECT_EQ(t.freq(i), outcomes[size_t(i)].action.c == 0 ? 455u : 152u) << ActionToString(outcomes[size_t(i)].action);
  EXPECT_EQ(t.total(), 36u * 455 + 108u * 152);
}

TEST(ModelTest, DecisionTablesAreUniformWithATinyEscape) {
  ActionList legal;
  for (int n : {1, 2, 7, 100, 1024}) {
    legal.size = n;
    SymbolTable t;
    BuildDecisionTable(legal, &t);
    ASSERT_EQ(t.size(), n + 1);
    EXPECT_LE(t.total(), kMaxTotal);
    EXPECT_EQ(t.freq(n), 1u);
    for (int i = 0; i < n; ++i) EXPECT_EQ(t.freq(i), (kMaxTotal - 1) / uint32_t(n));
  }
}

}  // namespace
}  // namespace metropolis::replays
