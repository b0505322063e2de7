// Vocabulary shared by the position notation's writer (notation.cc), its
// parser (notation_parse.cc) and the board picture (board_picture.cc). Every
// name here is part of the notation (docs/NOTATION.md), so lists are only ever
// appended to.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/progress.h"
#include "engine/state.h"
#include "engine/types.h"

namespace metropolis::notation_internal {

inline constexpr std::array<int, 5> kRowLengths = {3, 4, 5, 4, 3};
inline constexpr std::string_view kPhaseNames[] = {"setup", "before_roll", "action", "over"};
inline constexpr std::string_view kEventFaceNames[kNumEventFaces] = {"ship", "trade", "politics", "science"};
inline constexpr std::string_view kDeckKeys[kNumTracks] = {"deck_trade", "deck_politics", "deck_science"};
inline constexpr char kTrackLetters[kNumTracks + 1] = "tps";
// Knight flags in the order they are written: active, ready, promoted, committed.
inline constexpr char kKnightFlagLetters[] = "arpx";
inline constexpr uint8_t kKnightFlagBits[] = {kKnightActive, kKnightReady, kKnightPromoted, kKnightCommitted};
// Revealed victory-point cards: bit i of PlayerState::vp_cards.
inline constexpr int kVpCardKinds[] = {kPrinter, kConstitution};
inline constexpr char kAnswerLetters[] = "-adc";  // TradeAnswer order

// Indexed by PendingKind.
inline constexpr std::string_view kPendingNames[] = {
    "start_player",
    "dice",
    "steal",
    "draw",
    "step_event",
    "step_production",
    "step_attack",
    "step_robber_after_seven",
    "step_draws",
    "discard",
    "move_robber",
    "relocate_knight",
    "pillage",
    "aqueduct",
    "place_metropolis",
    "commit_knights",
    "discard_progress",
    "defender_deck",
    "trade_answer",
    "trade_close",
    "end_turn_discard",
    "step_end_turn",
    "road_building",
    "smith",
    "diplomat_replace",
    "deserter_remove",
    "deserter_place",
    "spy_take",
    "master_merchant_take",
    "wedding_give",
    "commercial_harbor",
    "harbor_return",
    "defender_take",
    "step_return_progress",
    "dev_draw",
};
inline constexpr int kNumPendingKinds = int(std::size(kPendingNames));
static_assert(int(PendingKind::kDevDraw) == kNumPendingKinds - 1, "name every PendingKind");

// The tracks a city can carry a metropolis of, as upper-case suffix letters.
char MetropolisLetter(int track);
char HarborLetter(int type);
int HarborFromLetter(char c);        // -1 if none
std::string ProgressText(int card);  // "?" for kHiddenCard
// Development cards (base game) as count+letter pairs, "2k1v"; "-" for none.
std::string DevText(const std::array<uint8_t, kNumDevKinds>& dev);
std::string ParseDevText(std::string_view text, std::array<uint8_t, kNumDevKinds>* out);  // error or ""
// The development deck implied by the hands and the played cards (BG-1).
std::array<uint8_t, kNumDevKinds> ImpliedDevDeck(const State& s);

// A state with the same seats and options straight after construction: the
// reference for fields written only when they differ from a fresh game's.
State FreshState(int num_seats, const RulesOptions& options);
// The bank when it holds exactly what the hands do not.
std::array<int16_t, kNumCardTypes> ImpliedBank(const State& s, const std::array<int16_t, kNumCardTypes>& full);
int DesertHex(const Board& b);
// Metropolis owner implied by the building under it.
int ImpliedMetropolisOwner(const State& s, int track);
bool FirstAttackImplied(const State& s);

// "2b1w3m"; empty for no cards.
template <typename Counts>
std::string CardsText(const Counts& counts) {
  std::string s;
  for (int c = 0; c < kNumCardTypes; ++c) {
    if (counts[c] == 0) continue;
    s += std::to_string(int(counts[c]));
    s += CardLetter(c);
  }
  return s;
}

}  // namespace metropolis::notation_internal
