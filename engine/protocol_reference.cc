#include "engine/protocol_reference.h"

#include <cstdio>

#include "engine/config.h"
#include "engine/json_text.h"
#include "engine/notation_internal.h"
#include "engine/progress.h"

namespace metropolis {
namespace {

using T = ActionType;
using K = PendingKind;
using E = EventType;

Action Offer() {
  CardCounts give, want;
  give[kBrick] = 2;
  want[kOre] = 1;
  return Action::TradeOffer(give, want, 0b1010);
}

Action Counter() {
  CardCounts give, want;
  give[kGrain] = 1;
  want[kBrick] = 2;
  return Action::TradeCounter(give, want);
}

std::vector<ActionReference> MakeActions() {
  using A = Action;
  return {
      {T::kChanceStartPlayer,
       "CHANCE_START_PLAYER",
       {"the seat that starts"},
       "chance, at pending start_player (start_player=ROLL)",
       "SET-1",
       A::Make(T::kChanceStartPlayer, 2)},
      {T::kChanceDice,
       "CHANCE_DICE",
       {"the yellow die, 0 when an Alchemist fixed the dice", "the red die, 0 when an Alchemist fixed the dice",
        "the event die's face"},
       "chance, at pending dice",
       "TRN-3, C-S1",
       A::Dice(4, 3, kEventShip)},
      {T::kChanceSteal,
       "CHANCE_STEAL",
       {"the card taken at random from the victim"},
       "chance, at pending steal",
       "ROB-3",
       A::Make(T::kChanceSteal, kOre)},
      {T::kChanceDraw,
       "CHANCE_DRAW",
       {"the progress card on top of the unseen deck"},
       "chance, at pending draw",
       "PD-2",
       A::Make(T::kChanceDraw, kCrane)},
      {T::kChanceDev,
       "CHANCE_DEV",
       {"the development card on top of the deck"},
       "chance, at pending dev_draw (ruleset base)",
       "BG-4",
       A::Make(T::kChanceDev, kDevKnight)},
      {T::kRoll, "ROLL", {}, "the current player, before the roll", "TRN-2, TRN-3", A::Roll()},
      {T::kEndTurn, "END_TURN", {}, "the current player, in the action phase", "TRN-7", A::EndTurn()},
      {T::kBuildRoad,
       "BUILD_ROAD",
       {"the edge the road goes on"},
       "the current player in the action phase; the setup seat after each setup building; free at pending "
       "road_building and diplomat_replace",
       "BLD-1, SET-2, SET-3",
       A::BuildRoad(17)},
      {T::kBuildSettlement,
       "BUILD_SETTLEMENT",
       {"the node the settlement goes on"},
       "the current player in the action phase; the setup seat in the first setup round (both rounds in the base game)",
       "BLD-2, SET-2, BG-2",
       A::BuildSettlement(12)},
      {T::kBuildCity,
       "BUILD_CITY",
       {"the node of the city: an own settlement, or an empty node in setup"},
       "the current player in the action phase; the setup seat in the second setup round (not in the base game)",
       "BLD-3, SET-3",
       A::BuildCity(12)},
      {T::kBuildWall,
       "BUILD_WALL",
       {"the node of an own city without a wall"},
       "the current player, in the action phase",
       "BLD-4",
       A::Make(T::kBuildWall, 12)},
      {T::kRecruitKnight,
       "RECRUIT_KNIGHT",
       {"the node the new basic knight goes on"},
       "the current player, in the action phase",
       "KN-3",
       A::Make(T::kRecruitKnight, 20)},
      {T::kActivateKnight,
       "ACTIVATE_KNIGHT",
       {"the node of an own inactive knight"},
       "the current player, in the action phase",
       "KN-4",
       A::Make(T::kActivateKnight, 20)},
      {T::kPromoteKnight,
       "PROMOTE_KNIGHT",
       {"the node of the own knight promoted"},
       "the current player in the action phase; free at pending smith",
       "KN-5, C-S10",
       A::Make(T::kPromoteKnight, 20)},
      {T::kMoveKnight,
       "MOVE_KNIGHT",
       {"the node the active knight leaves", "the empty node it moves to"},
       "the current player, in the action phase",
       "KN-7",
       A::Make(T::kMoveKnight, 3, 9)},
      {T::kDisplaceKnight,
       "DISPLACE_KNIGHT",
       {"the node of the own active knight", "the node of the weaker opposing knight it displaces"},
       "the current player, in the action phase",
       "KN-8",
       A::Make(T::kDisplaceKnight, 3, 9)},
      {T::kChaseRobber,
       "CHASE_ROBBER",
       {"the node of the own active knight next to the robber"},
       "the current player, in the action phase",
       "KN-9",
       A::Make(T::kChaseRobber, 20)},
      {T::kBuyImprovement,
       "BUY_IMPROVEMENT",
       {"the track improved"},
       "the current player, in the action phase",
       "IMP-1",
       A::Make(T::kBuyImprovement, kPolitics)},
      {T::kBankTrade,
       "BANK_TRADE",
       {"the card type given, at the best rate the seat has", "the card type taken"},
       "the current player, in the action phase",
       "TRD-2",
       A::Make(T::kBankTrade, kBrick, kOre)},
      {T::kMoveRobber,
       "MOVE_ROBBER",
       {"the hex the robber goes to", "the seat robbed + 1; 0 when nobody can be robbed there"},
       "the seat of pending move_robber",
       "ROB-2, ROB-3",
       A::MoveRobber(7, 2)},
      {T::kDiscard,
       "DISCARD",
       {"the card given up; one card per action"},
       "the seat of pending discard",
       "SEV-2, C-P6",
       A::Make(T::kDiscard, kWool)},
      {T::kRelocateKnight,
       "RELOCATE_KNIGHT",
       {"the empty node the displaced knight goes to"},
       "the seat of pending relocate_knight (the displaced knight's owner)",
       "KN-8",
       A::Make(T::kRelocateKnight, 21)},
      {T::kPillageCity,
       "PILLAGE_CITY",
       {"the own city reduced to a settlement"},
       "the seat of pending pillage",
       "BAR-8",
       A::Make(T::kPillageCity, 12)},
      {T::kAqueduct,
       "AQUEDUCT",
       {"the resource taken"},
       "the seat of pending aqueduct",
       "PRD-5",
       A::Make(T::kAqueduct, kGrain)},
      {T::kPlaceMetropolis,
       "PLACE_METROPOLIS",
       {"the own city that carries the metropolis"},
       "the seat of pending place_metropolis",
       "MET-2, MET-3",
       A::Make(T::kPlaceMetropolis, 12)},
      {T::kCommitKnight,
       "COMMIT_KNIGHT",
       {"the node of an own active knight sent against the barbarians"},
       "the seat of pending commit_knights (fiesepeter=true)",
       "BAR-12",
       A::Make(T::kCommitKnight, 20)},
      {T::kCommitDone,
       "COMMIT_DONE",
       {},
       "the seat of pending commit_knights: no more knights",
       "BAR-12",
       A::Make(T::kCommitDone)},
      {T::kDiscardProgress,
       "DISCARD_PROGRESS",
       {"the progress card put under its deck, face down"},
       "the seat of pending discard_progress or end_turn_discard",
       "PC-4",
       A::Make(T::kDiscardProgress, kSmith)},
      {T::kDefenderDeck,
       "DEFENDER_DECK",
       {"the deck (track) the Defender tie's card comes from"},
       "the seat of pending defender_deck",
       "BAR-6",
       A::Make(T::kDefenderDeck, kScience)},
      {T::kTradeOffer,
       "TRADE_OFFER",
       {"give, want and the addressees (see the cards field kind)"},
       "the current player, in the action phase, at most max_trade_offers_per_turn times",
       "TRD-3",
       Offer()},
      {T::kTradeAccept,
       "TRADE_ACCEPT",
       {},
       "the seat of pending trade_answer, holding the wanted cards",
       "TRD-3",
       A::Make(T::kTradeAccept)},
      {T::kTradeDecline, "TRADE_DECLINE", {}, "the seat of pending trade_answer", "TRD-3", A::Make(T::kTradeDecline)},
      {T::kTradeCounter,
       "TRADE_COUNTER",
       {"give and want from the answering seat's side (see the cards field kind)"},
       "the seat of pending trade_answer",
       "TRD-3",
       Counter()},
      {T::kTradeConfirm,
       "TRADE_CONFIRM",
       {"the seat whose acceptance or counter is executed"},
       "the seat of pending trade_close (the current player)",
       "TRD-3",
       A::Make(T::kTradeConfirm, 1)},
      {T::kTradeCancel,
       "TRADE_CANCEL",
       {},
       "the seat of pending trade_close: no exchange",
       "TRD-3",
       A::Make(T::kTradeCancel)},
      {T::kPlayProgress,
       "PLAY_PROGRESS",
       {"the progress card played", "a parameter of the card (PLAY_PROGRESS parameters)",
        "a parameter of the card (PLAY_PROGRESS parameters)"},
       "the card's holder on his turn: the Alchemist before the roll, every other card in the action phase",
       "PC-5",
       A::Play(kBishop, 7)},
      {T::kProgressStop,
       "PROGRESS_STOP",
       {},
       "the seat of an optional card step (road_building, smith, diplomat_replace, deserter_place, commercial_harbor): "
       "ends it",
       "PC-5",
       A::Make(T::kProgressStop)},
      {T::kRemoveKnight,
       "REMOVE_KNIGHT",
       {"the node of the own knight given up"},
       "the seat of pending deserter_remove (the victim)",
       "C-P3",
       A::Make(T::kRemoveKnight, 20)},
      {T::kPlaceKnight,
       "PLACE_KNIGHT",
       {"the node the knight goes on", "its level 1..3"},
       "the seat of pending deserter_place (the card's player)",
       "C-P3",
       A::Make(T::kPlaceKnight, 21, 2)},
      {T::kTakeProgress,
       "TAKE_PROGRESS",
       {"the progress card taken"},
       "the seat of pending spy_take or defender_take",
       "C-P7, BAR-6",
       A::Make(T::kTakeProgress, kWarlord)},
      {T::kTakeCard,
       "TAKE_CARD",
       {"the card type taken from the victim's hand"},
       "the seat of pending master_merchant_take",
       "C-T2",
       A::Make(T::kTakeCard, kCoin)},
      {T::kGiveCard,
       "GIVE_CARD",
       {"the card type given"},
       "the seat of pending wedding_give or harbor_return (a commodity)",
       "C-P9, C-T1",
       A::Make(T::kGiveCard, kPaper)},
      {T::kHarborOffer,
       "HARBOR_OFFER",
       {"the opponent asked for a commodity", "the resource offered"},
       "the seat of pending commercial_harbor",
       "C-T1",
       A::Make(T::kHarborOffer, 1, kWool)},
      {T::kRepairCity,
       "REPAIR_CITY",
       {"the node of an own sabotaged city"},
       "the current player, in the action phase (saboteur=SABOTAGE_CITY)",
       "C-P6",
       A::Make(T::kRepairCity, 12)},
      {T::kBuyDev,
       "BUY_DEV",
       {},
       "the current player, in the action phase (ruleset base); the card follows as CHANCE_DEV",
       "BG-4",
       A::Make(T::kBuyDev)},
      {T::kPlayDev,
       "PLAY_DEV",
       {"the development card played", "a parameter of the card (PLAY_DEV parameters)",
        "a parameter of the card (PLAY_DEV parameters)"},
       "the current player, before or after the roll, at most one per turn (ruleset base)",
       "BG-5",
       A::PlayDev(kDevMonopoly, kWool)},
  };
}

// Indexed by ProgressCard.
std::vector<CardPlayReference> MakeProgressPlays() {
  using A = Action;
  return {
      {kAlchemist, "b = the yellow die, c = the red die (1..6), fixed for this roll; played before the roll",
       A::Play(kAlchemist, 4, 3)},
      {kCrane, "none", A::Play(kCrane)},
      {kEngineer, "b = the own city that gets a free wall", A::Play(kEngineer, 12)},
      {kInventor, "b < c = the two hexes whose number tokens swap", A::Play(kInventor, 3, 9)},
      {kIrrigation, "none", A::Play(kIrrigation)},
      {kMedicine, "b = the own settlement upgraded to a city", A::Play(kMedicine, 12)},
      {kMining, "none", A::Play(kMining)},
      {kPrinter, "never played: a victory point card, revealed when drawn (PD-4)", A::Play(kPrinter)},
      {kRoadBuilding, "none; the free roads follow at pending road_building", A::Play(kRoadBuilding)},
      {kSmith, "none; the free promotions follow at pending smith", A::Play(kSmith)},
      {kBishop, "b = the hex the robber goes to", A::Play(kBishop, 7)},
      {kConstitution, "never played: a victory point card, revealed when drawn (PD-4)", A::Play(kConstitution)},
      {kDeserter, "b = the opponent who gives up a knight", A::Play(kDeserter, 2)},
      {kDiplomat, "b = the open road removed; 0 (written e0) under diplomat_scope=ALL_OPEN_ROADS",
       A::Play(kDiplomat, 17)},
      {kIntrigue, "b = the node of the opposing knight displaced", A::Play(kIntrigue, 20)},
      {kSaboteur, "b = the city sabotaged under saboteur=SABOTAGE_CITY, else 0 (left out of the text)",
       A::Play(kSaboteur)},
      {kSpy, "b = the opponent whose progress cards are looked at", A::Play(kSpy, 1)},
      {kWarlord, "none", A::Play(kWarlord)},
      {kWedding, "none", A::Play(kWedding)},
      {kCommercialHarbor, "none; the exchanges follow at pending commercial_harbor", A::Play(kCommercialHarbor)},
      {kMasterMerchant, "b = the opponent whose hand is looked at", A::Play(kMasterMerchant, 3)},
      {kMerchant, "b = the hex the merchant goes to", A::Play(kMerchant, 7)},
      {kMerchantFleet, "b = the card type traded 2:1 with the bank this turn", A::Play(kMerchantFleet, kWool)},
      {kResourceMonopoly, "b = the resource claimed", A::Play(kResourceMonopoly, kOre)},
      {kTradeMonopoly, "b = the commodity claimed", A::Play(kTradeMonopoly, kCoin)},
  };
}

// Indexed by DevCard.
std::vector<CardPlayReference> MakeDevPlays() {
  using A = Action;
  return {
      {kDevKnight, "none; the robber move follows at pending move_robber", A::PlayDev(kDevKnight)},
      {kDevVictoryPoint, "never played: shown when the game ends (BG-9)", A::PlayDev(kDevVictoryPoint)},
      {kDevRoadBuilding, "none; the two free roads follow at pending road_building", A::PlayDev(kDevRoadBuilding)},
      {kDevYearOfPlenty, "b <= c = the two resources taken", A::PlayDev(kDevYearOfPlenty, kBrick, kOre)},
      {kDevMonopoly, "b = the resource claimed", A::PlayDev(kDevMonopoly, kWool)},
  };
}

constexpr PendingRole kChance = PendingRole::kChance;
constexpr PendingRole kAuto = PendingRole::kAutomatic;
constexpr PendingRole kDecide = PendingRole::kDecision;

// Indexed by PendingKind.
std::vector<PendingReference> MakePending() {
  return {
      {K::kStartPlayer,
       kChance,
       "roll for the start player (start_player=ROLL)",
       {"-1"},
       {T::kChanceStartPlayer},
       "SET-1"},
      {K::kDice,
       kChance,
       "the roll of the dice",
       {"the current player", "1 if an Alchemist fixed the production dice (only the event die is drawn)"},
       {T::kChanceDice},
       "TRN-3, C-S1"},
      {K::kSteal,
       kChance,
       "a card taken at random",
       {"the thief", "the victim", "1 if only resources may be taken (progress_takes_resources_only, Bishop)"},
       {T::kChanceSteal},
       "ROB-3, D15"},
      {K::kDraw,
       kChance,
       "a progress card drawn from an unseen deck",
       {"the receiver", "the deck's track"},
       {T::kChanceDraw},
       "PD-2"},
      {K::kStepEvent, kAuto, "the event die's step of a roll", {"the current player"}, {}, "EVT-1, EVT-2"},
      {K::kStepProduction,
       kAuto,
       "production, or a 7's consequences",
       {"the current player"},
       {},
       "PRD-1, PRD-5, SEV-1, SEV-3"},
      {K::kStepAttack,
       kAuto,
       "the barbarian attack (after fiesepeter commitments)",
       {"the current player"},
       {},
       "BAR-2, BAR-9"},
      {K::kStepRobberAfterSeven,
       kAuto,
       "the robber move due after a 7's discards",
       {"the current player"},
       {},
       "SEV-3"},
      {K::kStepDraws,
       kAuto,
       "queues the progress draws of a city gate",
       {"the current player", "the gate's track"},
       {},
       "PD-2"},
      {K::kDiscard,
       kDecide,
       "give up cards, one per action (a 7, or the Saboteur)",
       {"the seat that discards", "cards still to discard"},
       {T::kDiscard},
       "SEV-2, C-P6"},
      {K::kMoveRobber,
       kDecide,
       "move the robber and choose whom to rob",
       {"the seat that moves it", "0 after a 7 or a base-game knight; 1 after a knight chased it"},
       {T::kMoveRobber},
       "ROB-2, KN-9"},
      {K::kRelocateKnight,
       kDecide,
       "put a displaced knight somewhere else",
       {"the knight's owner", "the node it was displaced from", "its level", "1 if it is active"},
       {T::kRelocateKnight},
       "KN-8"},
      {K::kPillage,
       kDecide,
       "choose the city the barbarians reduce",
       {"the seat that loses a city"},
       {T::kPillageCity},
       "BAR-8"},
      {K::kAqueduct, kDecide, "choose the Aqueduct's resource", {"the seat that takes it"}, {T::kAqueduct}, "PRD-5"},
      {K::kPlaceMetropolis,
       kDecide,
       "choose the city of a metropolis",
       {"its new owner", "the track"},
       {T::kPlaceMetropolis},
       "MET-2, MET-3"},
      {K::kCommitKnights,
       kDecide,
       "send active knights against the barbarians (fiesepeter=true)",
       {"the seat that commits"},
       {T::kCommitKnight, T::kCommitDone},
       "BAR-12"},
      {K::kDiscardProgress,
       kDecide,
       "put back a progress card above the hand limit",
       {"the seat over the limit"},
       {T::kDiscardProgress},
       "PC-4"},
      {K::kDefenderDeck,
       kDecide,
       "choose the deck of a Defender tie's card",
       {"the seat that draws"},
       {T::kDefenderDeck},
       "BAR-6"},
      {K::kTradeAnswer,
       kDecide,
       "answer the open trade offer",
       {"the addressee"},
       {T::kTradeAccept, T::kTradeDecline, T::kTradeCounter},
       "TRD-3"},
      {K::kTradeClose,
       kDecide,
       "execute one answer of the open offer, or none",
       {"the current player"},
       {T::kTradeConfirm, T::kTradeCancel},
       "TRD-3"},
      {K::kEndTurnDiscard,
       kDecide,
       "put back a fifth progress card before the turn ends",
       {"the current player"},
       {T::kDiscardProgress},
       "PC-4"},
      {K::kStepEndTurn, kAuto, "the end of the turn, after end_turn_discard", {"the current player"}, {}, "TRN-7"},
      {K::kRoadBuilding,
       kDecide,
       "place free roads (Road Building, also the base game's)",
       {"the card's player", "free roads left"},
       {T::kBuildRoad, T::kProgressStop},
       "C-S9, BG-5"},
      {K::kSmith,
       kDecide,
       "promote knights for free",
       {"the card's player", "free promotions left (the second is optional)"},
       {T::kPromoteKnight, T::kProgressStop},
       "C-S10"},
      {K::kDiplomatReplace,
       kDecide,
       "place again the own road the Diplomat removed",
       {"the card's player", "own roads that may be placed again"},
       {T::kBuildRoad, T::kProgressStop},
       "C-P4"},
      {K::kDeserterRemove,
       kDecide,
       "give up one of the victim's knights",
       {"the victim", "the card's player"},
       {T::kRemoveKnight},
       "C-P3"},
      {K::kDeserterPlace,
       kDecide,
       "place a knight in place of the deserter",
       {"the card's player", "the level removed", "1 if it was active"},
       {T::kPlaceKnight, T::kProgressStop},
       "C-P3"},
      {K::kSpyTake,
       kDecide,
       "take one of the victim's progress cards",
       {"the card's player", "the victim"},
       {T::kTakeProgress},
       "C-P7"},
      {K::kMasterMerchantTake,
       kDecide,
       "take cards from the victim's hand",
       {"the card's player", "the victim", "cards still to take"},
       {T::kTakeCard},
       "C-T2"},
      {K::kWeddingGive,
       kDecide,
       "give cards to the Wedding's player",
       {"the giver", "the receiver", "cards still to give"},
       {T::kGiveCard},
       "C-P9"},
      {K::kCommercialHarbor,
       kDecide,
       "offer resources to opponents, one each",
       {"the card's player"},
       {T::kHarborOffer, T::kProgressStop},
       "C-T1"},
      {K::kHarborReturn,
       kDecide,
       "give a commodity back for the resource offered",
       {"the opponent", "the card's player", "the resource offered"},
       {T::kGiveCard},
       "C-T1"},
      {K::kDefenderTake,
       kDecide,
       "take any card of the chosen deck (defender_tie_reward=ANY_CARD_OF_CHOSEN_DECK)",
       {"the seat that takes", "the deck's track"},
       {T::kTakeProgress},
       "BAR-6"},
      {K::kStepReturnProgress,
       kAuto,
       "the played card goes under its deck once its effect is resolved",
       {"the card's player", "the progress card"},
       {},
       "PC-6"},
      {K::kDevDraw,
       kChance,
       "the top card of the development deck (ruleset base)",
       {"the buyer"},
       {T::kChanceDev},
       "BG-4"},
  };
}

Event Ev(E type, int seat, int other, int a, int b = 0, int c = 0, Action action = Action()) {
  Event e;
  e.type = type;
  e.seat = int8_t(seat);
  e.other = int8_t(other);
  e.a = uint8_t(a);
  e.b = uint8_t(b);
  e.c = uint8_t(c);
  e.action = action;
  return e;
}

// Indexed by EventType.
std::vector<EventReference> MakeEvents() {
  return {
      {E::kAction,
       {"the actor; -2 for chance", "", "", "", "", "the action applied"},
       "everyone; the card of a hidden-card action only its seats",
       "",
       Ev(E::kAction, -2, -1, 0, 0, 0, Action::Make(T::kChanceSteal, kOre))},
      {E::kProduced,
       {"the receiver", "", "how many", "the card type"},
       "everyone",
       "PRD-1",
       Ev(E::kProduced, 1, -1, 2, kOre)},
      {E::kBankShortage,
       {"", "", "", "the card type nobody received"},
       "everyone",
       "PRD-4",
       Ev(E::kBankShortage, -1, -1, 0, kGrain)},
      {E::kBarbariansAdvance,
       {"", "", "the barbarians' new position (7: attack)"},
       "everyone",
       "BAR-1",
       Ev(E::kBarbariansAdvance, -1, -1, 5)},
      {E::kBarbarianAttack,
       {"", "", "the barbarians' strength", "Catan's strength", "1 if Catan won"},
       "everyone",
       "BAR-2, BAR-3, BAR-4",
       Ev(E::kBarbarianAttack, -1, -1, 3, 4, 1)},
      {E::kDefender,
       {"the seat that receives a Defender of Catan card"},
       "everyone",
       "BAR-5",
       Ev(E::kDefender, 2, -1, 0)},
      {E::kCityPillaged,
       {"the seat that lost a city", "", "its node"},
       "everyone",
       "BAR-8",
       Ev(E::kCityPillaged, 3, -1, 12)},
      {E::kMustDiscard,
       {"the seat that must discard", "", "how many cards"},
       "everyone",
       "SEV-2",
       Ev(E::kMustDiscard, 1, -1, 4)},
      {E::kStole,
       {"the thief", "the victim", "", "the card type"},
       "the thief and the victim; others see the card hidden",
       "ROB-3",
       Ev(E::kStole, 0, 2, 0, kWool)},
      {E::kProgressDrawn,
       {"the drawer", "", "the deck's track", "the progress card"},
       "the drawer; others see the card hidden",
       "PD-2",
       Ev(E::kProgressDrawn, 2, -1, kScience, kAlchemist)},
      {E::kVictoryCardRevealed,
       {"the seat", "", "", "the progress card (Printer or Constitution)"},
       "everyone",
       "PD-4",
       Ev(E::kVictoryCardRevealed, 1, -1, 0, kPrinter)},
      {E::kKnightRemoved, {"the knight's owner", "", "its node"}, "everyone", "KN-8", Ev(E::kKnightRemoved, 2, -1, 20)},
      {E::kLongestRoad, {"the new holder, or -1 for nobody"}, "everyone", "LR-2, LR-3", Ev(E::kLongestRoad, 3, -1, 0)},
      {E::kMetropolis,
       {"the owner, or -1 for nobody", "", "the track", "the city's node"},
       "everyone",
       "MET-2",
       Ev(E::kMetropolis, 0, -1, kScience, 12)},
      {E::kTradeExecuted,
       {"the current player", "the partner", "", "", "", "give: the cards seat gave; want: the cards it received"},
       "everyone",
       "TRD-3",
       Ev(E::kTradeExecuted, 0, 1, 0, 0, 0, Offer())},
      {E::kGameOver, {"the winner, or -1 at the length cap"}, "everyone", "WIN-1", Ev(E::kGameOver, 2, -1, 0)},
      {E::kPaid, {"the payer", "", "how many", "the card type"}, "everyone", "COST-1", Ev(E::kPaid, 1, -1, 2, kGrain)},
      {E::kCardGiven,
       {"the giver", "the receiver", "how many", "the card type"},
       "the two seats (Wedding, Commercial Harbor's commodity, Master Merchant); everyone for monopolies and a named "
       "resource",
       "C-P9, C-T1, C-T2",
       Ev(E::kCardGiven, 1, 3, 1, kCloth)},
      {E::kProgressSeen,
       {"the looker (Spy)", "the card's holder", "", "the progress card"},
       "the looker; others see the card hidden",
       "C-P7",
       Ev(E::kProgressSeen, 0, 2, 0, kWarlord)},
      {E::kHandSeen,
       {"the looker (Master Merchant)", "the hand's holder", "how many", "the card type"},
       "the looker; others see count and card hidden",
       "C-T2",
       Ev(E::kHandSeen, 0, 2, 3, kCoin)},
      {E::kProgressTaken,
       {"the taker (Spy)", "the victim", "", "the progress card"},
       "the two seats; others see the card hidden",
       "C-P7",
       Ev(E::kProgressTaken, 0, 2, 0, kWarlord)},
      {E::kTokensSwapped, {"", "", "a hex", "the other hex"}, "everyone", "C-S4", Ev(E::kTokensSwapped, -1, -1, 3, 9)},
      {E::kKnightDeserted,
       {"the knight's owner", "", "its node"},
       "everyone",
       "C-P3",
       Ev(E::kKnightDeserted, 2, -1, 20)},
      {E::kRoadRemoved, {"the road's owner", "", "its edge"}, "everyone", "C-P4", Ev(E::kRoadRemoved, 3, -1, 17)},
      {E::kMerchantPlaced,
       {"the merchant's owner", "", "its hex"},
       "everyone",
       "C-T3",
       Ev(E::kMerchantPlaced, 0, -1, 7)},
      {E::kCitySabotaged,
       {"the city's owner", "", "its node", "1 sabotaged, 0 repaired"},
       "everyone",
       "C-P6",
       Ev(E::kCitySabotaged, 1, -1, 12, 1)},
      {E::kLargestArmy, {"the new holder, or -1 for nobody"}, "everyone", "BG-6", Ev(E::kLargestArmy, 2, -1, 0)},
      {E::kDevRevealed, {"the seat", "", "its victory point cards"}, "everyone", "BG-9", Ev(E::kDevRevealed, 1, -1, 2)},
      {E::kBarbarianShare,
       {"the seat (one event per seat, in seat order, after the attack)", "",
        "its share of Catan's strength: its active knights' strength (under fiesepeter, its committed knights')"},
       "everyone",
       "BAR-3, BAR-12",
       Ev(E::kBarbarianShare, 1, -1, 3)},
  };
}

// ---- Rendering helpers ----

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'a' && c <= 'z') c = char(c - 'a' + 'A');
  return out;
}

std::string Hex(uint64_t code) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(code));
  return buf;
}

constexpr std::string_view kByteNames[3] = {"a", "b", "c"};
constexpr std::string_view kByteBits[3] = {"16..23", "8..15", "0..7"};
constexpr std::string_view kPendingFieldNames[4] = {"seat", "a", "b", "c"};
constexpr std::string_view kEventFieldNames[6] = {"seat", "other", "a", "b", "c", "action"};

// "1 brick, ..." from a name function.
template <typename NameFn>
std::string Listed(int first, int end, NameFn name) {
  std::string s;
  for (int i = first; i < end; ++i) {
    if (!s.empty()) s += ", ";
    s += std::to_string(i) + " " + std::string(name(i));
  }
  return s;
}

std::string EventFaceText(int f) { return f == kEventShip ? "ship" : std::string(TrackName(f - kEventTradeGate)); }

std::vector<FieldKindReference> MakeFieldKinds() {
  return {
      {"node", "intersection 0.." + std::to_string(kNumNodes - 1) + " (docs/BOARD.md)", "n<node>, e.g. n12"},
      {"edge", "path 0.." + std::to_string(kNumEdges - 1), "e<edge>, e.g. e17"},
      {"hex", "land hex 0.." + std::to_string(kNumHexes - 1), "h<hex>, e.g. h7"},
      {"card", "card type: " + Listed(0, kNumCardTypes, CardName), "its name"},
      {"resource", "a resource: " + Listed(0, kNumResources, CardName), "its name"},
      {"commodity", "a commodity: " + Listed(kNumResources, kNumCardTypes, CardName), "its name"},
      {"track", "improvement track, progress deck: " + Listed(0, kNumTracks, TrackName), "its name"},
      {"seat", "seat 0.." + std::to_string(kMaxSeats - 1), "the number"},
      {"victim", "the seat robbed + 1; 0 for nobody", "rob <seat>, or nothing"},
      {"die", "1..6; 0 when an Alchemist fixed the production dice", "the number, or -"},
      {"die_value", "1..6", "the number"},
      {"event_face", "event die face: " + Listed(0, kNumEventFaces, EventFaceText), "its name"},
      {"progress", "progress card: " + Listed(0, kNumProgressKinds, ProgressCardName), "its name"},
      {"level", "knight level 1.." + std::to_string(kMaxKnightLevel), "the number"},
      {"city_or_none", "a city node, or 0 when the option gives none", "n<node>, left out when 0"},
      {"dev", "development card (ruleset base): " + Listed(0, kNumDevKinds, DevCardName), "its name"},
      {"cards",
       "trade cards: give at bits 0..23 and want at bits 24..47, 3 bits per card type (brick first, at most " +
           std::to_string(kMaxCardsPerTypeInOffer) + " of a type); an offer's addressees as a seat mask at bits 48..51",
       "give <cards> want <cards> [to <seats>], cards like 2brick 1wool or -, seats like 1,3 or -"},
      {"per_card", "depends on the card in a: see the card's row under PLAY_PROGRESS or PLAY_DEV parameters",
       "the card's parameters"},
  };
}

std::string TextToken(std::string_view kind) {
  if (kind == "node") return "n<node>";
  if (kind == "edge") return "e<edge>";
  if (kind == "hex") return "h<hex>";
  if (kind == "victim") return "[rob <seat>]";
  if (kind == "city_or_none") return "[n<node>]";
  return "<" + std::string(kind) + ">";
}

const ActionReference* FindAction(ActionType t) {
  for (const ActionReference& r : ActionReferences())
    if (r.type == t) return &r;
  return nullptr;
}

std::string ConstantOf(ActionType t) {
  const ActionReference* r = FindAction(t);
  return r ? std::string(r->constant) : "?" + std::to_string(int(t));
}

// The pending kinds an action type answers.
std::vector<PendingKind> AnsweredBy(ActionType t) {
  std::vector<PendingKind> kinds;
  for (const PendingReference& p : PendingReferences())
    for (ActionType a : p.answers)
      if (a == t) kinds.push_back(p.kind);
  return kinds;
}

std::vector<std::string_view> SplitRules(std::string_view rules) {
  std::vector<std::string_view> ids;
  while (!rules.empty()) {
    size_t comma = rules.find(", ");
    ids.push_back(rules.substr(0, comma));
    if (comma == std::string_view::npos) break;
    rules.remove_prefix(comma + 2);
  }
  return ids;
}

// Markdown table cells: a pipe would end the cell.
std::string Cell(std::string_view text) {
  std::string s;
  for (char c : text) {
    if (c == '|') s += '\\';
    s += c;
  }
  return s.empty() ? "" : s;
}

std::string Code(std::string_view text) { return "`" + std::string(text) + "`"; }

// The fields of a masked copy of `e` that differ from `e`: what a seat outside
// private_to does not see (MaskEvent).
std::vector<std::string_view> MaskedFields(const EventReference& r) {
  Event e = r.example;
  e.private_to = 1;  // seat 0 only
  const Event m = MaskEvent(e, 1);
  std::vector<std::string_view> out;
  if (m.a != e.a) out.push_back("a");
  if (m.b != e.b) out.push_back("b");
  if (m.c != e.c) out.push_back("c");
  if (m.action.a != e.action.a) out.push_back("action.a");
  return out;
}

std::string HiddenCardActions() {
  std::string s;
  for (const ActionReference& r : ActionReferences()) {
    if (!ActionHidesCard(r.type)) continue;
    if (!s.empty()) s += ", ";
    s += std::string(r.constant);
  }
  return s;
}

// ---- JSON ----

// A JSON writer that indents by two spaces, one value or member per line, so
// that a change of the reference shows as a small diff.
class Json {
 public:
  std::string out;
  void Open(char c) {
    Element();
    out += c;
    first_.push_back(true);
  }
  void Close(char c) {
    const bool empty = first_.back();
    first_.pop_back();
    if (!empty) NewLine();
    out += c;
  }
  void Key(std::string_view k) {
    Element();
    AppendJsonString(k, &out);
    out += ": ";
    after_key_ = true;
  }
  void Str(std::string_view v) {
    Element();
    AppendJsonString(v, &out);
  }
  void Num(int64_t v) {
    Element();
    out += std::to_string(v);
  }
  void Bool(bool v) {
    Element();
    out += v ? "true" : "false";
  }
  void Null() {
    Element();
    out += "null";
  }
  void KeyStr(std::string_view k, std::string_view v) {
    Key(k);
    Str(v);
  }
  void KeyNum(std::string_view k, int64_t v) {
    Key(k);
    Num(v);
  }
  void KeyRules(std::string_view rules) {
    Key("rules");
    Open('[');
    for (std::string_view id : SplitRules(rules)) Str(id);
    Close(']');
  }

 private:
  // Before a value: a key's value follows it on its line; anything else in a
  // container starts a line of its own.
  void Element() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (first_.empty()) return;
    if (!first_.back()) out += ',';
    first_.back() = false;
    NewLine();
  }
  void NewLine() {
    out += '\n';
    out.append(2 * first_.size(), ' ');
  }
  std::vector<bool> first_;
  bool after_key_ = false;
};

void JsonExample(Json& j, const Action& a) {
  j.Key("example");
  j.Open('{');
  j.KeyStr("text", ActionToString(a));
  j.KeyStr("code", Hex(Encode(a)));
  j.Close('}');
}

void JsonCardPlays(Json& j, ActionType type, const std::vector<CardPlayReference>& plays,
                   std::string_view (*name)(int)) {
  j.Open('[');
  for (const CardPlayReference& p : plays) {
    j.Open('{');
    j.KeyNum("card", p.card);
    j.KeyStr("name", name(p.card));
    if (type == T::kPlayProgress) j.KeyStr("rule", ProgressCardRule(p.card));
    const auto kinds = ActionFieldKinds(type, p.card);
    j.Key("b");
    kinds[1].empty() ? j.Null() : j.Str(kinds[1]);
    j.Key("c");
    kinds[2].empty() ? j.Null() : j.Str(kinds[2]);
    j.KeyStr("parameters", p.parameters);
    JsonExample(j, p.example);
    j.Close('}');
  }
  j.Close(']');
}

}  // namespace

const std::vector<ActionReference>& ActionReferences() {
  static const std::vector<ActionReference> table = MakeActions();
  return table;
}
const std::vector<CardPlayReference>& ProgressPlayReferences() {
  static const std::vector<CardPlayReference> table = MakeProgressPlays();
  return table;
}
const std::vector<CardPlayReference>& DevPlayReferences() {
  static const std::vector<CardPlayReference> table = MakeDevPlays();
  return table;
}
const std::vector<PendingReference>& PendingReferences() {
  static const std::vector<PendingReference> table = MakePending();
  return table;
}
const std::vector<EventReference>& EventReferences() {
  static const std::vector<EventReference> table = MakeEvents();
  return table;
}
const std::vector<FieldKindReference>& FieldKindReferences() {
  static const std::vector<FieldKindReference> table = MakeFieldKinds();
  return table;
}

int NumPendingKinds() { return notation_internal::kNumPendingKinds; }

std::string_view PendingKindName(PendingKind k) {
  const int i = int(k);
  return i >= 0 && i < NumPendingKinds() ? notation_internal::kPendingNames[i] : "?";
}

std::string_view PendingRoleName(PendingRole r) {
  switch (r) {
    case PendingRole::kChance:
      return "chance";
    case PendingRole::kAutomatic:
      return "automatic";
    case PendingRole::kDecision:
      return "decision";
  }
  return "?";
}

std::string ActionTextForm(ActionType t) {
  std::string s(ActionTypeName(t));
  const auto kinds = ActionFieldKinds(t);
  if (kinds[0] == "cards")
    return s + (t == T::kTradeOffer ? " give <cards> want <cards> to <seats>" : " give <cards> want <cards>");
  for (int i = 0; i < 3; ++i) {
    if (kinds[i].empty() || (kinds[i] == "per_card" && i == 2)) continue;
    s += " " + (kinds[i] == "per_card" ? std::string("[<parameters>]") : TextToken(kinds[i]));
  }
  return s;
}

std::string ProtocolReferenceMarkdown() {
  std::string md;
  md += "# Protocol reference\n\n";
  md += "<!-- Generated by `metropolis-engine reference --markdown` from engine/protocol_reference.cc: do not\n";
  md += "     edit. Regenerate with scripts/regen-protocol.sh; the test protocol_reference checks it. -->\n\n";
  md += "Generated by `metropolis-engine reference --markdown` (rules version " + std::to_string(kRulesVersion) +
        ") from the engine's own\n";
  md += "tables (`engine/protocol_reference.cc`); do not edit it by hand. The same content as JSON is\n";
  md += "[protocol.json](protocol.json) (`metropolis-engine reference --json`). The messages that carry these\n";
  md += "numbers are in `proto/metropolis/v1/game.proto` and `gamehost.proto`; the rule ids are those of\n";
  md += "[RULES.md](RULES.md).\n\n";
  md += "Contents: [Actions](#actions), [Field kinds](#field-kinds),\n";
  md += "[PLAY_PROGRESS parameters](#play_progress-parameters), [PLAY_DEV parameters](#play_dev-parameters),\n";
  md += "[Pending decisions](#pending-decisions), [Events](#events).\n\n";

  md += "## Actions\n\n";
  md += "Every decision of a seat and every chance outcome is one action, sent as one 64-bit code\n";
  md += "(`Action.code`) or as text (`Action.text`, the engine's readable form):\n\n";
  md += "    code = type << 56 | a << 16 | b << 8 | c\n\n";
  md += "a, b and c are bytes whose meaning depends on the type (the field kinds below); a byte the type\n";
  md += "does not use is 0. Trade offers and counters carry cards instead (the `cards` kind). Legal actions\n";
  md += "are listed sorted by code. Types 0..9 are chance outcomes, drawn by the host, never by a seat. An\n";
  md += "action marked *hidden card* has a card in `a` that only some seats see: in the events of the\n";
  md += "others it reads 254. Types marked *built* are never in the legal list: a seat builds them.\n\n";
  md += "| code | constant | text form | payload | example | who / when | answers pending | rules |\n";
  md += "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const ActionReference& r : ActionReferences()) {
    const auto kinds = ActionFieldKinds(r.type);
    std::string payload;
    for (int i = 0; i < 3; ++i) {
      if (kinds[i].empty()) continue;
      if (!payload.empty()) payload += "<br>";
      if (kinds[i] == "cards")
        payload += "`cards`: " + Cell(r.payload[i]);
      else
        payload += std::string(kByteNames[i]) + " [" + std::string(kByteBits[i]) + "] `" + std::string(kinds[i]) +
                   "`: " + Cell(r.payload[i]);
    }
    if (payload.empty()) payload = "-";
    std::string who = Cell(r.who);
    if (ActionHidesCard(r.type)) who += " (*hidden card*)";
    if (IsParameterised(r.type)) who += " (*built*)";
    std::string answers;
    for (PendingKind k : AnsweredBy(r.type)) answers += (answers.empty() ? "" : ", ") + Code(PendingKindName(k));
    md += "| " + std::to_string(int(r.type)) + " | " + Code(r.constant) + " | " + Code(ActionTextForm(r.type)) + " | " +
          payload + " | " + Code(ActionToString(r.example)) + "<br>" + Code(Hex(Encode(r.example))) + " | " + who +
          " | " + (answers.empty() ? "-" : answers) + " | " + Cell(r.rules) + " |\n";
  }

  md += "\n## Field kinds\n\n";
  md += "What each kind of payload byte holds, and how the text form writes it.\n\n";
  md += "| kind | values | text |\n| --- | --- | --- |\n";
  for (const FieldKindReference& f : FieldKindReferences())
    md += "| `" + std::string(f.kind) + "` | " + Cell(f.values) + " | " + Cell(f.text) + " |\n";

  md += "\n## PLAY_PROGRESS parameters\n\n";
  md += "PLAY_PROGRESS's a is the progress card; b and c depend on it. A card without parameters has\n";
  md += "b = c = 0 and nothing after its name in the text.\n\n";
  md += "| card | name | rule | b | c | parameters | example |\n| --- | --- | --- | --- | --- | --- | --- |\n";
  for (const CardPlayReference& p : ProgressPlayReferences()) {
    const auto kinds = ActionFieldKinds(T::kPlayProgress, p.card);
    md += "| " + std::to_string(p.card) + " | " + Code(ProgressCardName(p.card)) + " | " +
          std::string(ProgressCardRule(p.card)) + " | " + (kinds[1].empty() ? "-" : Code(kinds[1])) + " | " +
          (kinds[2].empty() ? "-" : Code(kinds[2])) + " | " + Cell(p.parameters) + " | " +
          Code(ActionToString(p.example)) + " |\n";
  }

  md += "\n## PLAY_DEV parameters\n\n";
  md += "The base game (ruleset base): PLAY_DEV's a is the development card; b and c depend on it.\n\n";
  md += "| card | name | b | c | parameters | example |\n| --- | --- | --- | --- | --- | --- |\n";
  for (const CardPlayReference& p : DevPlayReferences()) {
    const auto kinds = ActionFieldKinds(T::kPlayDev, p.card);
    md += "| " + std::to_string(p.card) + " | " + Code(DevCardName(p.card)) + " | " +
          (kinds[1].empty() ? "-" : Code(kinds[1])) + " | " + (kinds[2].empty() ? "-" : Code(kinds[2])) + " | " +
          Cell(p.parameters) + " | " + Code(ActionToString(p.example)) + " |\n";
  }

  md += "\n## Pending decisions\n\n";
  md += "The engine keeps pending decisions and automatic steps on a stack; a view sends it whole\n";
  md += "(`Position.pending`, bottom first, each a `Pending` message: kind, seat, a, b, c). The top entry\n";
  md += "is what happens next: at a *chance* entry the host draws the outcome, an *automatic* entry is\n";
  md += "run by the engine as soon as it is on top (a seat never sees one on top when it must act), and at\n";
  md += "a *decision* the entry's seat answers with one of the listed action types. With an empty stack\n";
  md += "the seat to act is the setup seat (phase setup) or the current player (before the roll, action\n";
  md += "phase). The names are those of the position notation (docs/NOTATION.md).\n\n";
  md += "| kind | name | role | meaning | seat | a | b | c | answered by | rules |\n";
  md += "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const PendingReference& p : PendingReferences()) {
    std::string answers;
    for (ActionType t : p.answers) answers += (answers.empty() ? "" : ", ") + Code(ConstantOf(t));
    md += "| " + std::to_string(int(p.kind)) + " | " + Code(PendingKindName(p.kind)) + " | " +
          std::string(PendingRoleName(p.role)) + " | " + Cell(p.meaning);
    for (std::string_view f : p.fields) md += " | " + (f.empty() ? std::string("-") : Cell(f));
    md += " | " + (answers.empty() ? "-" : answers) + " | " + Cell(p.rules) + " |\n";
  }

  md += "\n## Events\n\n";
  md += "What happened in a step, beyond the action (`Event` messages, in order). Every applied action\n";
  md += "first gives an `action` event; its consequences follow. The proto's name is `EVENT_` and the\n";
  md += "name in capitals. A seat outside an event's private seats receives it with the hidden fields\n";
  md += "set to 254, and so is the card of a hidden-card action in an `action` event (" + HiddenCardActions() + ").\n";
  md += "The example is the event's text as the engine writes it in logs.\n\n";
  md += "| type | name | seat | other | a | b | c | action | seen by | hidden fields | example | rules |\n";
  md += "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const EventReference& r : EventReferences()) {
    md += "| " + std::to_string(int(r.type)) + " | " + Code(EventTypeName(r.type)) + " | ";
    for (std::string_view f : r.fields) md += (f.empty() ? std::string("-") : Cell(f)) + " | ";
    std::string hidden;
    for (std::string_view f : MaskedFields(r)) hidden += (hidden.empty() ? "" : ", ") + std::string(f);
    md += Cell(r.visibility) + " | " + (hidden.empty() ? "-" : hidden) + " | " + Code(EventToString(r.example)) +
          " | " + (r.rules.empty() ? "-" : Cell(r.rules)) + " |\n";
  }
  return md;
}

std::string ProtocolReferenceJson() {
  Json j;
  j.Open('{');
  j.KeyStr("generated_by", "metropolis-engine reference --json");
  j.KeyNum("rules_version", kRulesVersion);
  j.KeyStr("action_code",
           "type << 56 | a << 16 | b << 8 | c; trade cards: give bits 0..23, want bits 24..47, "
           "addressees bits 48..51");

  j.Key("field_kinds");
  j.Open('[');
  for (const FieldKindReference& f : FieldKindReferences()) {
    j.Open('{');
    j.KeyStr("kind", f.kind);
    j.KeyStr("values", f.values);
    j.KeyStr("text", f.text);
    j.Close('}');
  }
  j.Close(']');

  j.Key("actions");
  j.Open('[');
  for (const ActionReference& r : ActionReferences()) {
    j.Open('{');
    j.KeyNum("type", int(r.type));
    j.KeyStr("constant", r.constant);
    j.KeyStr("name", ActionTypeName(r.type));
    j.Key("chance");
    j.Bool(IsChanceAction(r.type));
    j.Key("built");
    j.Bool(IsParameterised(r.type));
    j.Key("hidden_card");
    j.Bool(ActionHidesCard(r.type));
    j.KeyStr("text_form", ActionTextForm(r.type));
    const auto kinds = ActionFieldKinds(r.type);
    j.Key("fields");
    j.Open('[');
    for (int i = 0; i < 3; ++i) {
      if (kinds[i].empty()) continue;
      j.Open('{');
      j.KeyStr("byte", kinds[i] == "cards" ? "cards" : kByteNames[i]);
      j.KeyStr("bits", kinds[i] == "cards" ? "0..51" : kByteBits[i]);
      j.KeyStr("kind", kinds[i]);
      j.KeyStr("meaning", r.payload[i]);
      j.Close('}');
    }
    j.Close(']');
    JsonExample(j, r.example);
    j.KeyStr("who", r.who);
    j.Key("answers");
    j.Open('[');
    for (PendingKind k : AnsweredBy(r.type)) j.Str(PendingKindName(k));
    j.Close(']');
    j.KeyRules(r.rules);
    j.Close('}');
  }
  j.Close(']');

  j.Key("play_progress_parameters");
  JsonCardPlays(j, T::kPlayProgress, ProgressPlayReferences(), ProgressCardName);
  j.Key("play_dev_parameters");
  JsonCardPlays(j, T::kPlayDev, DevPlayReferences(), DevCardName);

  j.Key("pending");
  j.Open('[');
  for (const PendingReference& p : PendingReferences()) {
    j.Open('{');
    j.KeyNum("kind", int(p.kind));
    j.KeyStr("name", PendingKindName(p.kind));
    j.KeyStr("role", PendingRoleName(p.role));
    j.KeyStr("meaning", p.meaning);
    j.Key("fields");
    j.Open('{');
    for (int i = 0; i < 4; ++i)
      if (!p.fields[i].empty()) j.KeyStr(kPendingFieldNames[i], p.fields[i]);
    j.Close('}');
    j.Key("answers");
    j.Open('[');
    for (ActionType t : p.answers) j.Str(ConstantOf(t));
    j.Close(']');
    j.KeyRules(p.rules);
    j.Close('}');
  }
  j.Close(']');

  j.Key("events");
  j.Open('[');
  for (const EventReference& r : EventReferences()) {
    j.Open('{');
    j.KeyNum("type", int(r.type));
    j.KeyStr("name", EventTypeName(r.type));
    j.KeyStr("proto", "EVENT_" + Upper(EventTypeName(r.type)));
    j.Key("fields");
    j.Open('{');
    for (int i = 0; i < 6; ++i)
      if (!r.fields[i].empty()) j.KeyStr(kEventFieldNames[i], r.fields[i]);
    j.Close('}');
    j.KeyStr("seen_by", r.visibility);
    j.Key("hidden_fields");
    j.Open('[');
    for (std::string_view f : MaskedFields(r)) j.Str(f);
    j.Close(']');
    j.KeyStr("example", EventToString(r.example));
    j.KeyRules(r.rules);
    j.Close('}');
  }
  j.Close(']');
  j.Close('}');
  return j.out + "\n";
}

}  // namespace metropolis
