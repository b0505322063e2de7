#include "engine/progress.h"

namespace metropolis {
namespace {

constexpr std::string_view kNames[kNumProgressKinds] = {
    "alchemist",       "crane",        "engineer",       "inventor",          "irrigation",
    "medicine",        "mining",       "printer",        "road_building",     "smith",
    "bishop",          "constitution", "deserter",       "diplomat",          "intrigue",
    "saboteur",        "spy",          "warlord",        "wedding",           "commercial_harbor",
    "master_merchant", "merchant",     "merchant_fleet", "resource_monopoly", "trade_monopoly",
};

// RULES.md 1.7; the Engineer's count is an option (D12).
constexpr uint8_t kCounts[kNumProgressKinds] = {
    2, 2, 1, 2, 2, 2, 2, 1, 2, 2,  // science
    2, 1, 2, 2, 2, 2, 3, 2, 2,     // politics
    2, 2, 6, 2, 4, 2,              // trade
};

}  // namespace

int ProgressCardCount(int card, const RulesOptions& options) {
  if (card < 0 || card >= kNumProgressKinds) return 0;
  if (card == kEngineer) return options.green_engineer_count;
  return kCounts[card];
}

std::string_view ProgressCardName(int card) { return card >= 0 && card < kNumProgressKinds ? kNames[card] : "?"; }

int ProgressCardFromName(std::string_view name) {
  for (int card = 0; card < kNumProgressKinds; ++card)
    if (kNames[card] == name) return card;
  return -1;
}

}  // namespace metropolis
