#include "lib/chance/chance.h"

#include <cassert>
#include <utility>

#include "lib/chance/splitmix.h"

namespace metropolis::chance {

ChanceStreams::ChanceStreams(uint64_t seed) : seed_(seed) {}
ChanceStreams::ChanceStreams(Source source) : source_(std::move(source)) {}

double ChanceStreams::Next(ChanceKind kind) {
  // Counter-based: the k-th number of a stream is a hash of (seed, kind, k),
  // so streams never interfere and any number can be recomputed.
  const uint64_t k = counters_[int(kind)]++;
  const uint64_t x = source_ ? source_(kind, k) : MixSeed(MixSeed(seed_, uint64_t(kind) + 1), k);
  return double(x >> 11) * 0x1.0p-53;
}

ChanceKind ChanceStreams::KindOf(const State& state) {
  assert(state.IsChanceNode());
  const Pending& p = state.pending(state.pending_size() - 1);
  switch (p.kind) {
    case PendingKind::kStartPlayer:
      return ChanceKind::kStartPlayer;
    case PendingKind::kDice:
      return ChanceKind::kDice;
    case PendingKind::kSteal:
      return ChanceKind::kSteal;
    case PendingKind::kDraw:
      return p.a == kTrade      ? ChanceKind::kDrawTrade
             : p.a == kPolitics ? ChanceKind::kDrawPolitics
                                : ChanceKind::kDrawScience;
    default:
      return ChanceKind::kOther;
  }
}

Action ChanceStreams::Sample(const State& state) { return state.SampleChance(Next(KindOf(state))); }

}  // namespace metropolis::chance
