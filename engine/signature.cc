#include "engine/signature.h"

#include <string>

namespace metropolis {
namespace {

class Fnv1a {
 public:
  void Add(uint64_t v) {
    // Byte by byte in a fixed order, so the number does not depend on the
    // machine's endianness.
    for (int i = 0; i < 8; ++i) {
      hash_ ^= (v >> (8 * i)) & 0xFF;
      hash_ *= 0x100000001B3ull;
    }
  }
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_ = 0xCBF29CE484222325ull;
};

}  // namespace

void PlayRandomGame(State* state, BenchRng* chance, BenchRng* players,
                    const std::function<void(const State&, const Action&)>& on_action) {
  ActionList legal;
  while (!state->IsTerminal()) {
    Action a;
    if (state->IsChanceNode()) {
      a = state->SampleChance(chance->Uniform());
    } else {
      state->LegalActions(&legal);
      a = legal.items[players->Next() % uint64_t(legal.size)];
    }
    if (on_action) on_action(*state, a);
    state->ApplyUnchecked(a);
  }
}

uint64_t BenchSignature(int games, uint64_t seed, BenchCounts* counts, Ruleset ruleset) {
  Fnv1a hash;
  BenchCounts c;
  for (int i = 0; i < games; ++i) {
    const uint64_t g = seed + uint64_t(i);
    GameConfig config;
    config.board = RandomBoard(g);
    config.options = DefaultOptions(ruleset);
    State state;
    std::string error;
    // A default configuration on a generated board is always valid; if it
    // ever is not, the hash records that instead of hiding it.
    if (!NewGame(config, &state, &error)) {
      hash.Add(~uint64_t(0));
      continue;
    }
    BenchRng chance{g};
    BenchRng players{BenchRng{~g}.Next()};
    PlayRandomGame(&state, &chance, &players, [&](const State&, const Action& a) {
      hash.Add(Encode(a));
      ++c.actions;
      if (IsChanceAction(a.type)) ++c.chance_actions;
    });
    for (double r : state.Returns()) hash.Add(uint64_t(r));
    hash.Add(uint64_t(int64_t(state.Winner())));
    hash.Add(state.action_count());
    for (int p = 0; p < state.num_seats(); ++p) hash.Add(state.player(p).vp);
    ++c.games;
    if (state.Winner() != kNoSeat) ++c.won;
  }
  if (counts) *counts = c;
  return hash.value();
}

}  // namespace metropolis
