// Actions: typed structs for code, a stable 64-bit encoding for the wire and
// replays, and a readable text form for logs and the command line.
//
// Every decision of a seat and every chance outcome is one Action. The stable
// encoding is
//
//     code = type << 56 | payload
//
// with the payload per type (a, b, c are bytes at bits 16, 8 and 0, so that
// codes sort by a, then b, then c). Trade offers and counters are the only
// actions that carry cards: `give` and `want` are packed 3 bits per card type (brick first), at
// bits 0..23 and 24..47, and the addressee mask of an offer sits at bits
// 48..51. Legal actions are returned sorted by their code, so the order of
// legal actions is part of the rules version too.
//
// The list of action types with their codes, payloads, text forms, who takes
// them and the rules they apply is data: engine/protocol_reference.cc, printed
// as docs/PROTOCOL.md by `metropolis-engine reference`. In short: chance
// outcomes are types 0..9, a seat's own moves 10..23, answers to pending
// decisions 30..45, progress cards and their steps 50..58, and the base game's
// development cards 70..71 (ruleset base, RULES.md 22). PLAY_PROGRESS's and
// PLAY_DEV's b and c depend on the card in a; while a card's step is pending,
// BUILD_ROAD (Road Building, Diplomat) and PROMOTE_KNIGHT (Smith) place or
// promote for free.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/types.h"

namespace metropolis {

enum class ActionType : uint8_t {
  kChanceStartPlayer = 0,
  kChanceDice = 1,
  kChanceSteal = 2,
  kChanceDraw = 3,
  kChanceDev = 4,
  kRoll = 10,
  kEndTurn = 11,
  kBuildRoad = 12,
  kBuildSettlement = 13,
  kBuildCity = 14,
  kBuildWall = 15,
  kRecruitKnight = 16,
  kActivateKnight = 17,
  kPromoteKnight = 18,
  kMoveKnight = 19,
  kDisplaceKnight = 20,
  kChaseRobber = 21,
  kBuyImprovement = 22,
  kBankTrade = 23,
  kMoveRobber = 30,
  kDiscard = 31,
  kRelocateKnight = 32,
  kPillageCity = 33,
  kAqueduct = 34,
  kPlaceMetropolis = 35,
  kCommitKnight = 36,
  kCommitDone = 37,
  kDiscardProgress = 38,
  kDefenderDeck = 39,
  kTradeOffer = 40,
  kTradeAccept = 41,
  kTradeDecline = 42,
  kTradeCounter = 43,
  kTradeConfirm = 44,
  kTradeCancel = 45,
  kPlayProgress = 50,
  kProgressStop = 51,
  kRemoveKnight = 52,
  kPlaceKnight = 53,
  kTakeProgress = 54,
  kTakeCard = 55,
  kGiveCard = 56,
  kHarborOffer = 57,
  kRepairCity = 58,
  kBuyDev = 70,
  kPlayDev = 71,
};

// Cards of one side of a trade: 4 bits per card type in memory; at most 7 of a
// type in an offer (TRD-3, so that the encoding stays 64 bits).
struct PackedCards {
  uint32_t bits = 0;
  int Get(int card) const { return (bits >> (4 * card)) & 0xF; }
  void Set(int card, int n) { bits = (bits & ~(0xFu << (4 * card))) | (uint32_t(n & 0xF) << (4 * card)); }
  int Total() const {
    int t = 0;
    for (int c = 0; c < kNumCardTypes; ++c) t += Get(c);
    return t;
  }
  static PackedCards From(const CardCounts& c);
  CardCounts ToCounts() const;
  bool operator==(const PackedCards&) const = default;
};
inline constexpr int kMaxCardsPerTypeInOffer = 7;

struct Action {
  ActionType type = ActionType::kEndTurn;
  uint8_t a = 0, b = 0, c = 0;
  PackedCards give, want;  // trade offers and counters only
  uint8_t addressees = 0;  // trade offers only: bit per seat

  bool operator==(const Action&) const = default;

  static Action Make(ActionType t, int a = 0, int b = 0, int c = 0) {
    Action x;
    x.type = t;
    x.a = uint8_t(a);
    x.b = uint8_t(b);
    x.c = uint8_t(c);
    return x;
  }
  static Action Roll() { return Make(ActionType::kRoll); }
  static Action EndTurn() { return Make(ActionType::kEndTurn); }
  static Action Dice(int yellow, int red, int event) { return Make(ActionType::kChanceDice, yellow, red, event); }
  static Action BuildRoad(int edge) { return Make(ActionType::kBuildRoad, edge); }
  static Action BuildSettlement(int node) { return Make(ActionType::kBuildSettlement, node); }
  static Action BuildCity(int node) { return Make(ActionType::kBuildCity, node); }
  static Action MoveRobber(int hex, int victim) { return Make(ActionType::kMoveRobber, hex, victim + 1); }
  static Action TradeOffer(const CardCounts& give, const CardCounts& want, int addressee_mask);
  static Action TradeCounter(const CardCounts& give, const CardCounts& want);
  static Action Play(int card, int b = 0, int c = 0) { return Make(ActionType::kPlayProgress, card, b, c); }
  static Action PlayDev(int dev, int b = 0, int c = 0) { return Make(ActionType::kPlayDev, dev, b, c); }
};

// Actions that carry parameters the engine cannot enumerate; they are never in
// LegalActions() and are checked when submitted.
inline bool IsParameterised(ActionType t) { return t == ActionType::kTradeOffer || t == ActionType::kTradeCounter; }
inline bool IsChanceAction(ActionType t) { return uint8_t(t) < 10; }

uint64_t Encode(const Action& a);
// std::nullopt for a code that names no action of this rules version.
std::optional<Action> Decode(uint64_t code);
inline bool operator<(const Action& x, const Action& y) { return Encode(x) < Encode(y); }

// Readable form, e.g. "build_road e17", "move_knight n3 n9", "dice 4 3 ship",
// "offer give 2b want 1o to 1,3", "move_robber h7 rob 2". ParseAction reads
// exactly what ActionToString writes; on failure it returns nullopt and sets
// *error to a message saying what was expected.
std::string ActionToString(const Action& a);
std::optional<Action> ParseAction(std::string_view text, std::string* error);
std::string_view ActionTypeName(ActionType t);

// The kind of value each payload byte a, b, c of type `t` holds, from the table
// that drives Encode, Decode and the text form: "node", "edge", "hex", "card",
// "resource", "commodity", "track", "seat", "victim", "die", "die_value",
// "event_face", "progress", "level", "city_or_none", "dev", or "cards" for the
// give/want/addressees of a trade (a only); empty for a byte the type does not
// use. PLAY_PROGRESS's and PLAY_DEV's b and c depend on the card: given `card`
// (the value of a) they are that card's; with card -1 they read "per_card".
// For the protocol reference (engine/protocol_reference.h).
std::array<std::string_view, 3> ActionFieldKinds(ActionType t, int card = -1);

}  // namespace metropolis
