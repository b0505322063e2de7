// The built-in bots (bots/bot.h) as deciders for the bot kit's Client.
#pragma once

#include <cstdint>
#include <vector>

#include "botkits/cpp/client.h"
#include "bots/bot.h"

namespace metropolis::botkit {

// The bot's choice among view.legal without the `excluded` actions (those the
// host refused for this decision). A built-in bot never leaves view.legal, so
// without the exclusion it would pick a refused action again. When nothing is
// left it returns excluded.back(), which the Client does not resend.
Action ChooseExcluding(bots::Bot& bot, const View& view, const std::vector<Action>& excluded, uint64_t* rng);

// A DecisionFn playing `bot` with the random stream `*rng`; both must outlive
// the Client's Run. With `notes`, each answer carries a debug note for the
// bot's author ("heuristic chose build_road e12 of 7 legal"; --debug-notes).
DecisionFn BuiltinDecider(bots::Bot* bot, uint64_t* rng, bool notes = false);

}  // namespace metropolis::botkit
