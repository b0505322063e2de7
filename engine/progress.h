// Progress cards (RULES.md 1.7): kinds, colours and deck composition. Card
// plays come with the rules engine's second part; draws, the hand limit and
// the VP cards are already resolved by the core (PD-1..PD-6, PC-4).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "engine/config.h"
#include "engine/types.h"

namespace metropolis {

// Numbered science, then politics, then trade, each in RULES.md's order; part
// of the action encoding (CHANCE_DRAW, DISCARD_PROGRESS).
enum ProgressCard : uint8_t {
  kAlchemist = 0,
  kCrane,
  kEngineer,
  kInventor,
  kIrrigation,
  kMedicine,
  kMining,
  kPrinter,
  kRoadBuilding,
  kSmith,
  kBishop,  // 10
  kConstitution,
  kDeserter,
  kDiplomat,
  kIntrigue,
  kSaboteur,
  kSpy,
  kWarlord,
  kWedding,
  kCommercialHarbor,  // 19
  kMasterMerchant,
  kMerchant,
  kMerchantFleet,
  kResourceMonopoly,
  kTradeMonopoly,
};
inline constexpr int kNumProgressKinds = 25;
inline constexpr int kNoProgressCard = 0xFF;

// The deck (track) a card belongs to.
inline constexpr int ProgressTrack(int card) {
  return card < kBishop ? kScience : card < kCommercialHarbor ? kPolitics : kTrade;
}
inline constexpr bool IsVictoryPointCard(int card) { return card == kPrinter || card == kConstitution; }

// First kind and number of kinds of each track's deck.
inline constexpr int TrackFirstCard(int track) {
  return track == kScience ? kAlchemist : track == kPolitics ? kBishop : kCommercialHarbor;
}
inline constexpr int TrackNumKinds(int track) { return track == kScience ? 10 : track == kPolitics ? 9 : 6; }

// Copies of each kind in a full deck under these options (D12: Engineer).
int ProgressCardCount(int card, const RulesOptions& options);

std::string_view ProgressCardName(int card);      // "alchemist", "commercial_harbor", ...
int ProgressCardFromName(std::string_view name);  // -1 if unknown
std::string_view ProgressCardRule(int card);      // its id in RULES.md section 13: "C-S1", ..., "C-T6"
std::string_view ProgressCardTitle(int card);     // its name as the rulebook writes it: "Alchemist", "Road Building"

}  // namespace metropolis
