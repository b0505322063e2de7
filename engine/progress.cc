#include "engine/progress.h"

namespace metropolis {
namespace {

// One row per card, in card order: its notation name, its name as the
// rulebook writes it, its rule id (RULES.md section 13) and how many the deck
// holds (RULES.md 1.7; the Engineer's count is an option, D12).
struct CardInfo {
  std::string_view name;
  std::string_view title;
  std::string_view rule;
  uint8_t count;
};

constexpr CardInfo kCards[kNumProgressKinds] = {
    // science
    {"alchemist", "Alchemist", "C-S1", 2},
    {"crane", "Crane", "C-S2", 2},
    {"engineer", "Engineer", "C-S3", 1},
    {"inventor", "Inventor", "C-S4", 2},
    {"irrigation", "Irrigation", "C-S5", 2},
    {"medicine", "Medicine", "C-S6", 2},
    {"mining", "Mining", "C-S7", 2},
    {"printer", "Printer", "C-S8", 1},
    {"road_building", "Road Building", "C-S9", 2},
    {"smith", "Smith", "C-S10", 2},
    // politics
    {"bishop", "Bishop", "C-P1", 2},
    {"constitution", "Constitution", "C-P2", 1},
    {"deserter", "Deserter", "C-P3", 2},
    {"diplomat", "Diplomat", "C-P4", 2},
    {"intrigue", "Intrigue", "C-P5", 2},
    {"saboteur", "Saboteur", "C-P6", 2},
    {"spy", "Spy", "C-P7", 3},
    {"warlord", "Warlord", "C-P8", 2},
    {"wedding", "Wedding", "C-P9", 2},
    // trade
    {"commercial_harbor", "Commercial Harbor", "C-T1", 2},
    {"master_merchant", "Master Merchant", "C-T2", 2},
    {"merchant", "Merchant", "C-T3", 6},
    {"merchant_fleet", "Merchant Fleet", "C-T4", 2},
    {"resource_monopoly", "Resource Monopoly", "C-T5", 4},
    {"trade_monopoly", "Trade Monopoly", "C-T6", 2},
};

bool Known(int card) { return card >= 0 && card < kNumProgressKinds; }

}  // namespace

int ProgressCardCount(int card, const RulesOptions& options) {
  if (!Known(card)) return 0;
  if (card == kEngineer) return options.green_engineer_count;
  return kCards[card].count;
}

std::string_view ProgressCardName(int card) { return Known(card) ? kCards[card].name : "?"; }
std::string_view ProgressCardRule(int card) { return Known(card) ? kCards[card].rule : "PC-5"; }
std::string_view ProgressCardTitle(int card) { return Known(card) ? kCards[card].title : "?"; }

int ProgressCardFromName(std::string_view name) {
  for (int card = 0; card < kNumProgressKinds; ++card)
    if (kCards[card].name == name) return card;
  return -1;
}

}  // namespace metropolis
