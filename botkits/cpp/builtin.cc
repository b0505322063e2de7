#include "botkits/cpp/builtin.h"

#include <algorithm>

namespace metropolis::botkit {

Action ChooseExcluding(bots::Bot& bot, const View& view, const std::vector<Action>& excluded, uint64_t* rng) {
  if (excluded.empty()) return bot.Choose(view, rng);
  View rest = view;
  std::erase_if(rest.legal,
                [&](const Action& a) { return std::find(excluded.begin(), excluded.end(), a) != excluded.end(); });
  if (rest.legal.empty()) return excluded.back();
  return bot.Choose(rest, rng);
}

DecisionFn BuiltinDecider(bots::Bot* bot, uint64_t* rng, bool notes) {
  return [bot, rng, notes](const View& view, const DecisionInfo& info) {
    const Action action = ChooseExcluding(*bot, view, info.rejected, rng);
    if (notes && info.note)
      info.note->text =
          bot->name() + " chose " + ActionToString(action) + " of " + std::to_string(view.legal.size()) + " legal";
    return action;
  };
}

}  // namespace metropolis::botkit
