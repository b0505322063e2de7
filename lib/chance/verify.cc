#include "lib/chance/verify.h"

#include <utility>

namespace metropolis::chance {

bool CheckChance(const GameConfig& config, const std::vector<Action>& actions, ChanceStreams streams,
                 ChanceCheck* out) {
  *out = ChanceCheck{};
  State state(config);
  if (!NewGame(config, &state, &out->error)) {
    out->error = "the configuration: " + out->error;
    return false;
  }
  for (size_t i = 0; i < actions.size(); ++i) {
    const Action& a = actions[i];
    const std::string where = "action " + std::to_string(i) + " (" + ActionToString(a) + ")";
    if (state.IsTerminal()) {
      out->error = where + ": the game is already over";
      return false;
    }
    if (state.IsChanceNode()) {
      const ChanceKind kind = ChanceStreams::KindOf(state);
      const Action drawn = streams.Sample(state);
      if (drawn != a) {
        out->error = where + ": the seed draws " + ActionToString(drawn) + " here";
        return false;
      }
      ++out->chance_nodes;
      if (kind == ChanceKind::kDice) ++out->rolls;
    }
    if (std::string error = state.Apply(a); !error.empty()) {
      out->error = where + ": " + error;
      return false;
    }
    ++out->actions;
  }
  return true;
}

}  // namespace metropolis::chance
