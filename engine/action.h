// Actions: typed structs for code, a stable 64-bit encoding for the wire and
// replays, and a readable text form for logs and the command line.
//
// Every decision of a seat and every chance outcome is one Action. The stable
// encoding is
//
//     code = type << 56 | payload
//
// with the payload per type given in the table below (a, b, c are bytes at
// bits 16, 8 and 0, so that codes sort by a, then b, then c). Trade offers and counters are the only actions that carry
// cards: `give` and `want` are packed 3 bits per card type (brick first), at
// bits 0..23 and 24..47, and the addressee mask of an offer sits at bits
// 48..51. Legal actions are returned sorted by their code, so the order of
// legal actions is part of the rules version too.
//
//   type                      payload                  who / when
//   ------------------------  -----------------------  ----------------------------
//   CHANCE_START_PLAYER   0   a = seat                 chance, SET-1 (start_player=ROLL)
//   CHANCE_DICE           1   a = yellow, b = red,     chance, TRN-3; yellow/red are
//                             c = event face           0 when an Alchemist fixed them
//   CHANCE_STEAL          2   a = card                 chance, ROB-3 (random card)
//   CHANCE_DRAW           3   a = progress card        chance, PD-2 (top of an unseen deck)
//   CHANCE_DEV            4   a = development card     chance, BG-4 (base: top of the dev deck)
//   ROLL                 10   -                        current player, TRN-3
//   END_TURN             11   -                        current player, TRN-7
//   BUILD_ROAD           12   a = edge                 BLD-1, SET-2/3
//   BUILD_SETTLEMENT     13   a = node                 BLD-2, SET-2
//   BUILD_CITY           14   a = node                 BLD-3, SET-3
//   BUILD_WALL           15   a = node                 BLD-4
//   RECRUIT_KNIGHT       16   a = node                 KN-3
//   ACTIVATE_KNIGHT      17   a = node                 KN-4
//   PROMOTE_KNIGHT       18   a = node                 KN-5
//   MOVE_KNIGHT          19   a = from, b = to         KN-7
//   DISPLACE_KNIGHT      20   a = from, b = to         KN-8
//   CHASE_ROBBER         21   a = knight node          KN-9
//   BUY_IMPROVEMENT      22   a = track                IMP-1
//   BANK_TRADE           23   a = card given, b = card taken   TRD-2 (best rate)
//   MOVE_ROBBER          30   a = hex, b = victim+1    ROB-2/ROB-3 (0: nobody to rob)
//   DISCARD              31   a = card                 SEV-2, one card at a time
//   RELOCATE_KNIGHT      32   a = node                 KN-8 step 2
//   PILLAGE_CITY         33   a = node                 BAR-8
//   AQUEDUCT             34   a = resource             PRD-5
//   PLACE_METROPOLIS     35   a = node                 MET-2/MET-3
//   COMMIT_KNIGHT        36   a = node                 BAR-12 (fiesepeter)
//   COMMIT_DONE          37   -                        BAR-12
//   DISCARD_PROGRESS     38   a = progress card        PC-4
//   DEFENDER_DECK        39   a = track                BAR-6
//   TRADE_OFFER          40   give, want, addressees   TRD-3 step 1 (not enumerated)
//   TRADE_ACCEPT         41   -                        TRD-3 step 2
//   TRADE_DECLINE        42   -                        TRD-3 step 2
//   TRADE_COUNTER        43   give, want               TRD-3 step 2 (not enumerated)
//   TRADE_CONFIRM        44   a = seat                 TRD-3 step 3
//   TRADE_CANCEL         45   -                        TRD-3 step 3
//
//   PLAY_PROGRESS        50   a = card, b, c = parameters (below)   PC-5, section 13
//   PROGRESS_STOP        51   -                        ends an optional card step
//   REMOVE_KNIGHT        52   a = node                 C-P3 step 1 (the victim's choice)
//   PLACE_KNIGHT         53   a = node, b = level      C-P3 step 2
//   TAKE_PROGRESS        54   a = progress card        C-P7 Spy; BAR-6 ANY_CARD_OF_CHOSEN_DECK
//   TAKE_CARD            55   a = card                 C-T2 Master Merchant's pick
//   GIVE_CARD            56   a = card                 C-P9 Wedding gift, C-T1 commodity returned
//   HARBOR_OFFER         57   a = opponent, b = resource   C-T1 Commercial Harbor
//   REPAIR_CITY          58   a = node                 C-P6 under saboteur=SABOTAGE_CITY
//
// PLAY_PROGRESS parameters: alchemist b = yellow, c = red (1..6); engineer
// b = city node; inventor b < c = the two hexes; medicine b = settlement node;
// bishop b = hex; deserter, spy, master_merchant b = opponent seat; diplomat
// b = road edge (0 under diplomat_scope=ALL_OPEN_ROADS); intrigue b = knight
// node; saboteur b = city node under SABOTAGE_CITY, else 0; merchant b = hex;
// merchant_fleet b = card type; resource_monopoly b = resource;
// trade_monopoly b = commodity; every other card none. While a card's step is
// pending, BUILD_ROAD (Road Building, Diplomat) and PROMOTE_KNIGHT (Smith)
// place or promote for free.
//
// The base game's development cards (ruleset base, RULES.md 22):
//
//   BUY_DEV              70   -                        BG-4: 1 wool + 1 grain + 1 ore, then CHANCE_DEV
//   PLAY_DEV             71   a = dev card, b, c       BG-5, at most one per turn, also before the roll
//
// PLAY_DEV parameters: knight and road_building none (the robber move and the
// free roads follow as MOVE_ROBBER and BUILD_ROAD / PROGRESS_STOP decisions);
// year_of_plenty b <= c = the two resources; monopoly b = resource.
// victory_point cards are never played (BG-5).
#pragma once

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

}  // namespace metropolis
