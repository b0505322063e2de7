#include "services/replays/codec/model.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "services/replays/codec/range_coder.h"

namespace metropolis::replays {

namespace {

SymbolTable FromFrequencies(const std::vector<uint32_t>& freq) {
  SymbolTable t;
  t.cum.assign(1, 0);
  for (uint32_t f : freq) t.cum.push_back(t.cum.back() + f);
  assert(t.total() <= kMaxTotal);
  return t;
}

}  // namespace

int SymbolTable::Find(uint32_t target) const {
  assert(target < total());
  // The last cum <= target; empty slots cannot occur (every freq >= 1).
  return int(std::upper_bound(cum.begin(), cum.end(), target) - cum.begin()) - 1;
}

static_assert(ActionList::kCapacity < kMaxTotal, "every legal action needs a unit of the decision table");

void BuildDecisionTable(const ActionList& legal, SymbolTable* table) {
  // Uniform over the legal actions, each as wide as fits; the escape gets a
  // single unit, so an ordinary action pays about 2^-16 / ln 2 bits for it.
  const uint32_t n = uint32_t(legal.size);
  const uint32_t width = n == 0 ? 0 : (kMaxTotal - 1) / n;
  table->cum.resize(n + 2);
  for (uint32_t i = 0; i <= n; ++i) table->cum[i] = i * width;
  table->cum[n + 1] = n * width + 1;
}

void BuildChanceTable(const std::vector<ChanceOutcome>& outcomes, SymbolTable* table) {
  table->cum.resize(outcomes.size() + 1);
  table->cum[0] = 0;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const uint32_t f = std::max<uint32_t>(1, uint32_t(std::lround(outcomes[i].probability * kChanceScale)));
    table->cum[i + 1] = table->cum[i] + f;
  }
  assert(table->total() <= kMaxTotal);
}

const SymbolTable& ParameterisedKindTable() {
  static const SymbolTable t = FromFrequencies({3, 1});
  return t;
}

const SymbolTable& OfferCountTable() {
  static_assert(kMaxCardsPerTypeInOffer == 7, "one frequency per count");
  static const SymbolTable t = FromFrequencies({96, 40, 12, 4, 2, 1, 1, 1});
  return t;
}

const SymbolTable& AddresseeTable() {
  static const SymbolTable t = FromFrequencies(std::vector<uint32_t>(size_t(1) << kMaxSeats, 1));
  return t;
}

}  // namespace metropolis::replays
