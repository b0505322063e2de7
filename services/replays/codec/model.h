// The probability model of the replay codec: for each step of a game, the
// table of integer frequencies its symbol is coded with. The encoder and the
// decoder build the same table from the same State, so it holds no memory of
// earlier steps and depends only on the engine's lists at that step — the
// rules version, which the caller stores with the blob, fixes them.
//
//   a seat's decision   symbols 0..n-1 = LegalActions() in their order,
//                       symbol n = the escape for a parameterised action
//                       (trade offer or counter), coded after it with the
//                       offer tables below
//   a chance node       symbols = ChanceOutcomes() in their order, with
//                       frequencies from their probabilities (kChanceScale)
//
// Changing any table here changes the format: bump kFormatVersion (codec.h).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/state.h"

namespace metropolis::replays {

struct SymbolTable {
  std::vector<uint32_t> cum;  // cum[i] = sum of the frequencies of symbols < i; cum.back() = total

  int size() const { return int(cum.size()) - 1; }
  uint32_t total() const { return cum.back(); }
  uint32_t freq(int symbol) const { return cum[size_t(symbol) + 1] - cum[size_t(symbol)]; }
  // The symbol whose slot [cum[s], cum[s + 1]) holds target (< total()).
  int Find(uint32_t target) const;
};

// A seat's decision over `legal` plus the escape symbol legal.size.
void BuildDecisionTable(const ActionList& legal, SymbolTable* table);

// Chance probabilities become integer frequencies by one fixed rule:
// freq = max(1, round(p * kChanceScale)). p * 2^15 is exact in binary floating
// point, so the only rounding is to the nearest integer, the same in every
// build; the total stays within kMaxTotal (2^15 + at most 1.5 per outcome, and
// a chance node has at most 216 outcomes).
inline constexpr double kChanceScale = 32768.0;
void BuildChanceTable(const std::vector<ChanceOutcome>& outcomes, SymbolTable* table);

// After an escape: 0 = TRADE_OFFER, 1 = TRADE_COUNTER.
const SymbolTable& ParameterisedKindTable();
// The count of one card type on one side of an offer, 0..kMaxCardsPerTypeInOffer:
// mostly 0, then 1 or 2 (a fixed guess; an offer is rare next to the rest).
const SymbolTable& OfferCountTable();
// The addressee mask of an offer, uniform over the 2^kMaxSeats masks.
const SymbolTable& AddresseeTable();

}  // namespace metropolis::replays
