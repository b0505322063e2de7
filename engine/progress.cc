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

namespace {

// RULES.md section 13: each card's id and its name as the rulebook writes it.
constexpr std::string_view kRules[kNumProgressKinds] = {
    "C-S1", "C-S2", "C-S3", "C-S4", "C-S5", "C-S6", "C-S7", "C-S8", "C-S9", "C-S10", "C-P1", "C-P2", "C-P3",
    "C-P4", "C-P5", "C-P6", "C-P7", "C-P8", "C-P9", "C-T1", "C-T2", "C-T3", "C-T4",  "C-T5", "C-T6",
};
constexpr std::string_view kTitles[kNumProgressKinds] = {
    "Alchemist",       "Crane",        "Engineer",       "Inventor",          "Irrigation",
    "Medicine",        "Mining",       "Printer",        "Road Building",     "Smith",
    "Bishop",          "Constitution", "Deserter",       "Diplomat",          "Intrigue",
    "Saboteur",        "Spy",          "Warlord",        "Wedding",           "Commercial Harbor",
    "Master Merchant", "Merchant",     "Merchant Fleet", "Resource Monopoly", "Trade Monopoly",
};

}  // namespace

std::string_view ProgressCardRule(int card) { return card >= 0 && card < kNumProgressKinds ? kRules[card] : "PC-5"; }
std::string_view ProgressCardTitle(int card) { return card >= 0 && card < kNumProgressKinds ? kTitles[card] : "?"; }

int ProgressCardFromName(std::string_view name) {
  for (int card = 0; card < kNumProgressKinds; ++card)
    if (kNames[card] == name) return card;
  return -1;
}

}  // namespace metropolis
