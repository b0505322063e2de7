// Chance streams: chance outcomes drawn from one seeded stream per kind, so
// that the k-th roll of a game with seed s is the same whatever the players
// do — the k-th roll takes the k-th number of the dice stream, whatever
// happened between the rolls. Two games with the same seed and different
// players then meet the same dice, the same start player and (as long as the
// decks hold the same cards) the same draws: the common random numbers of a
// fair, duplicate comparison (the arena).
//
// Streams: the start player, the dice, a random steal, one per progress
// deck, and one for any other kind of chance node. Each outcome is State::SampleChance(u) with u the next number of the
// stream of the pending chance node's kind.
#pragma once

#include <array>
#include <cstdint>
#include <functional>

#include "engine/state.h"

namespace metropolis::chance {

// kOther: any other chance node (the base game's development deck).
enum class ChanceKind : uint8_t { kStartPlayer = 0, kDice, kSteal, kDrawTrade, kDrawPolitics, kDrawScience, kOther };
inline constexpr int kNumChanceKinds = 7;

class ChanceStreams {
 public:
  // The k-th raw 64-bit number of a stream; a game's chance numbers are this
  // function of (kind, k) and nothing else.
  using Source = std::function<uint64_t(ChanceKind kind, uint64_t index)>;

  // Version 1: splitmix over a 64-bit seed. Fast and reproducible, for the
  // arena, training and old records; not a secret anyone should rely on.
  explicit ChanceStreams(uint64_t seed);
  // Any other derivation (version 2, lib/chance/verifiable.h).
  explicit ChanceStreams(Source source);

  // The outcome of the chance node `state` is at (state.IsChanceNode()).
  Action Sample(const State& state);
  // The next uniform number of a stream, in [0, 1).
  double Next(ChanceKind kind);
  // How many numbers a stream has given.
  uint64_t used(ChanceKind kind) const { return counters_[int(kind)]; }

  // The kind of the chance node `state` is at.
  static ChanceKind KindOf(const State& state);

 private:
  uint64_t seed_ = 0;
  Source source_;  // empty: version 1 over seed_
  std::array<uint64_t, kNumChanceKinds> counters_{};
};

}  // namespace metropolis::chance
